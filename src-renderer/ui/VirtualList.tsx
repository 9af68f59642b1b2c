import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { filterItems } from './search';
import { formatCount, useT } from '../i18n';
import './virtual-list.css';

export interface VirtualListProps<T> {
  items: readonly T[];
  getKey(item: T): string;
  renderItem(item: T, selected: boolean): ReactNode;
  /** The list's accessible name. */
  label: string;
  selectedKey?: string | undefined;
  onSelect?(item: T): void;
  /** The text a search matches against; without it there is no search box. */
  searchFields?(item: T): Array<string | undefined>;
  searchLabel?: string;
  /** Controlled search text (else the list keeps its own). */
  query?: string;
  onQueryChange?(query: string): void;
  /** Extra controls beside the search box (filters, buttons). */
  toolbar?: ReactNode;
  /** What one row is, in words, for the count ("tool" → "12 tools"). */
  noun?: [singular: string, plural: string];
  estimateSize?: number;
  empty?: ReactNode;
  testId?: string;
  itemTestId?: string;
  /** Keep the end in view while the reader is there (logs, trace). */
  follow?: boolean;
  className?: string;
}

/**
 * A searchable list that renders only the rows on screen (whatever its length), as a listbox: click or Up/Down
 * select (the list keeps one tab stop; the selected row is its active descendant), Home/End jump.
 */
export function VirtualList<T>(props: VirtualListProps<T>) {
  const {
    items,
    getKey,
    renderItem,
    label,
    selectedKey,
    onSelect,
    searchFields,
    toolbar,
    noun,
    estimateSize = 44,
    empty,
    testId,
    itemTestId,
    follow = false,
  } = props;
  const [ownQuery, setOwnQuery] = useState('');
  const t = useT();
  const query = props.query ?? ownQuery;
  const setQuery = (q: string): void => {
    if (props.onQueryChange) props.onQueryChange(q);
    else setOwnQuery(q);
  };
  const shown = useMemo(() => (searchFields ? filterItems(items, query, searchFields) : items), [items, query, searchFields]);
  const scroller = useRef<HTMLDivElement>(null);
  const stuck = useRef(true);
  const id = useId();
  const virtualizer = useVirtualizer({
    count: shown.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => estimateSize,
    overscan: 6,
    getItemKey: (index) => {
      const item = shown[index];
      return item === undefined ? index : getKey(item);
    },
  });
  const selectedIndex = selectedKey === undefined ? -1 : shown.findIndex((item) => getKey(item) === selectedKey);
  const optionId = (index: number): string => `${id}-opt-${index}`;

  const last = shown[shown.length - 1];
  useLayoutEffect(() => {
    if (follow && stuck.current && shown.length > 0) virtualizer.scrollToIndex(shown.length - 1, { align: 'end' });
  }, [follow, shown.length, last, virtualizer]);
  useEffect(() => {
    const el = scroller.current;
    if (!el || !follow) return;
    const onScroll = (): void => {
      stuck.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
    };
    el.addEventListener('scroll', onScroll, { passive: true });
    return () => el.removeEventListener('scroll', onScroll);
  }, [follow]);

  // A selection made elsewhere (a resource link opened from the chat) is scrolled into view.
  useEffect(() => {
    if (selectedIndex >= 0) virtualizer.scrollToIndex(selectedIndex, { align: 'auto' });
    // Only when the selection itself changes, not on every list update.
  }, [selectedKey]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    if (!onSelect || shown.length === 0) return;
    let next: number | undefined;
    if (event.key === 'ArrowDown') next = Math.min(shown.length - 1, selectedIndex + 1);
    else if (event.key === 'ArrowUp') next = Math.max(0, selectedIndex < 0 ? 0 : selectedIndex - 1);
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = shown.length - 1;
    const item = next === undefined ? undefined : shown[next];
    if (next === undefined || item === undefined) return;
    event.preventDefault();
    stuck.current = next === shown.length - 1;
    onSelect(item);
    virtualizer.scrollToIndex(next, { align: 'auto' });
  };

  const nounWord = noun ? (items.length === 1 ? noun[0] : noun[1]) : '';
  const count = noun
    ? shown.length === items.length
      ? t('list.count', { total: formatCount(items.length), noun: nounWord })
      : t('list.countOf', { shown: formatCount(shown.length), total: formatCount(items.length), noun: nounWord })
    : undefined;

  return (
    <div className={`vlist${props.className ? ` ${props.className}` : ''}`} data-testid={testId}>
      {(searchFields || toolbar || count) && (
        <div className="vlist-toolbar">
          {searchFields && (
            <input
              type="search"
              className="vlist-search"
              aria-label={props.searchLabel ?? t('list.searchLabel', { label })}
              placeholder={props.searchLabel ?? t('list.search')}
              value={query}
              spellCheck={false}
              onChange={(e) => setQuery(e.target.value)}
            />
          )}
          {toolbar}
          {count && (
            <span className="muted vlist-count" aria-live="polite">
              {count}
            </span>
          )}
        </div>
      )}
      <div
        ref={scroller}
        className="vlist-scroller"
        role="listbox"
        aria-label={label}
        tabIndex={0}
        aria-activedescendant={selectedIndex >= 0 ? optionId(selectedIndex) : undefined}
        onKeyDown={onKeyDown}
      >
        {shown.length === 0 ? (
          <div className="vlist-empty muted">{items.length === 0 ? (empty ?? t('list.empty')) : t('list.noMatch')}</div>
        ) : (
          <div className="vlist-inner" style={{ height: virtualizer.getTotalSize() }}>
            {virtualizer.getVirtualItems().map((row) => {
              const item = shown[row.index];
              if (item === undefined) return null;
              const selected = row.index === selectedIndex;
              return (
                <div
                  key={row.key}
                  id={optionId(row.index)}
                  role="option"
                  aria-selected={selected}
                  aria-setsize={shown.length}
                  aria-posinset={row.index + 1}
                  data-index={row.index}
                  data-testid={itemTestId}
                  data-key={getKey(item)}
                  ref={virtualizer.measureElement}
                  className={`vlist-item${selected ? ' selected' : ''}${onSelect ? ' selectable' : ''}`}
                  style={{ transform: `translateY(${row.start}px)` }}
                  onClick={() => onSelect?.(item)}
                >
                  {renderItem(item, selected)}
                </div>
              );
            })}
          </div>
        )}
      </div>
    </div>
  );
}
