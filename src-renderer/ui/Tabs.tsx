import { useRef, type KeyboardEvent, type ReactNode } from 'react';
import './tabs.css';

export interface TabSpec<T extends string> {
  id: T;
  label: string;
  /** A count or mark shown after the label (part of its accessible name only as a visual extra). */
  badge?: ReactNode;
  disabled?: boolean;
}

/**
 * A WAI-ARIA tablist: one tab in the tab order (roving tabindex), Left/Right move and select, Home/End jump.
 * Panels use {@link tabPanelProps} so each is labelled by its tab.
 */
export function Tabs<T extends string>({
  label,
  idPrefix,
  tabs,
  selected,
  onSelect,
  className,
}: {
  label: string;
  idPrefix: string;
  tabs: ReadonlyArray<TabSpec<T>>;
  selected: T;
  onSelect(id: T): void;
  className?: string;
}) {
  const refs = useRef(new Map<T, HTMLButtonElement>());
  const enabled = tabs.filter((t) => t.disabled !== true);
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    const at = enabled.findIndex((t) => t.id === selected);
    let next: number | undefined;
    if (event.key === 'ArrowRight') next = (at + 1) % enabled.length;
    else if (event.key === 'ArrowLeft') next = (at - 1 + enabled.length) % enabled.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = enabled.length - 1;
    const tab = next === undefined ? undefined : enabled[next];
    if (!tab) return;
    event.preventDefault();
    onSelect(tab.id);
    refs.current.get(tab.id)?.focus();
  };
  return (
    <div className={`ui-tabs${className ? ` ${className}` : ''}`} role="tablist" aria-label={label} onKeyDown={onKeyDown}>
      {tabs.map((tab) => {
        const isSelected = tab.id === selected;
        return (
          <button
            key={tab.id}
            ref={(el) => {
              if (el) refs.current.set(tab.id, el);
              else refs.current.delete(tab.id);
            }}
            type="button"
            role="tab"
            id={`${idPrefix}-tab-${tab.id}`}
            aria-selected={isSelected}
            aria-controls={`${idPrefix}-panel-${tab.id}`}
            tabIndex={isSelected ? 0 : -1}
            disabled={tab.disabled}
            className={`ui-tab${isSelected ? ' selected' : ''}`}
            data-testid={`tab-${tab.id}`}
            onClick={() => onSelect(tab.id)}
          >
            {tab.label}
            {tab.badge !== undefined && <span className="ui-tab-badge">{tab.badge}</span>}
          </button>
        );
      })}
    </div>
  );
}

/** Props for the panel of tab `id` (labelled by it, focusable as the tab pattern asks). */
export function tabPanelProps(idPrefix: string, id: string) {
  return {
    role: 'tabpanel',
    id: `${idPrefix}-panel-${id}`,
    'aria-labelledby': `${idPrefix}-tab-${id}`,
    tabIndex: -1,
  } as const;
}
