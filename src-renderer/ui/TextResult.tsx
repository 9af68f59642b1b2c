import { useMemo, useState } from 'react';
import { JsonTree, parseJsonContainer } from './JsonTree';
import { looksLikeMarkdown } from './markdown';
import { Markdown } from './Markdown';
import { useT } from '../i18n';

/** Long outputs show this much until "Show all". */
export const collapsedChars = 3000;
export const collapsedLines = 40;
const maxMarkdownChars = 100_000;
const maxJsonChars = 20 * 1024 * 1024;

/** JSON, numbers and the like read best in monospace; prose in the UI font. */
const looksLikeCode = (text: string): boolean => /^\s*[[{"\d-]/.test(text) || /^ {2,}\S/m.test(text);

function formatSize(chars: number): string {
  return chars < 1024 ? `${chars} characters` : chars < 1024 * 1024 ? `${(chars / 1024).toFixed(1)} KB` : `${(chars / 1024 / 1024).toFixed(1)} MB`;
}

/** Where a long text is cut for the collapsed view: at most `collapsedChars`, at most `collapsedLines` lines. */
function cutAt(text: string): number {
  let at = Math.min(text.length, collapsedChars);
  let lines = 0;
  for (let i = 0; i < at; i++) {
    if (text.charCodeAt(i) === 10 && ++lines >= collapsedLines) {
      at = i;
      break;
    }
  }
  return at;
}

/** One text block of a tool result: a JSON tree, Markdown, or plain text — collapsed when long. */
export function TextResult({ text }: { text: string }) {
  const t = useT();
  const json = useMemo(() => (text.length <= maxJsonChars ? parseJsonContainer(text) : { ok: false as const }), [text]);
  const markdown = useMemo(() => text.length <= maxMarkdownChars && looksLikeMarkdown(text), [text]);
  const [view, setView] = useState<'auto' | 'raw'>('auto');
  const [expanded, setExpanded] = useState(false);
  const cut = useMemo(() => cutAt(text), [text]);
  const long = cut < text.length;

  const toggle = (json.ok || markdown) && (
    <button
      type="button"
      className="btn btn-small result-view-toggle"
      data-testid="result-view-toggle"
      onClick={() => setView(view === 'auto' ? 'raw' : 'auto')}
    >
      {view === 'auto' ? t('textResult.raw') : json.ok ? t('textResult.tree') : t('textResult.markdown')}
    </button>
  );
  if (view === 'auto' && json.ok) {
    return (
      <div className="result-block" data-testid="result-json">
        {toggle}
        <JsonTree value={json.value} />
      </div>
    );
  }
  if (view === 'auto' && markdown) {
    return (
      <div className="result-block" data-testid="result-markdown">
        {toggle}
        <Markdown text={text} />
      </div>
    );
  }
  const shown = long && !expanded ? text.slice(0, cut) : text;
  return (
    <div className="result-block">
      {toggle}
      <pre
        className={`block-text${looksLikeCode(text.slice(0, collapsedChars)) ? ' is-code' : ''}${long && !expanded ? ' is-collapsed' : ''}`}
        data-testid="result-text"
      >
        {shown}
      </pre>
      {long && (
        <button type="button" className="btn btn-small" data-testid="result-show-all" onClick={() => setExpanded(!expanded)}>
          {expanded ? t('textResult.collapse') : t('textResult.showAll', { size: formatSize(text.length) })}
        </button>
      )}
    </div>
  );
}
