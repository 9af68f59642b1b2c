import { useState } from 'react';

/**
 * A collapsible JSON tree. Children render only when a node is open, and at most `page` at a time, so a
 * multi-megabyte result costs what is on screen, not what is in it.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
const page = 200;

function summary(value: Json): string {
  if (Array.isArray(value)) return `[${value.length}]`;
  if (value !== null && typeof value === 'object') return `{${Object.keys(value).length}}`;
  return '';
}

function Scalar({ value }: { value: Json }) {
  if (typeof value === 'string') {
    const shown = value.length > 2000 ? `${value.slice(0, 2000)}… (${value.length} characters)` : value;
    return <span className="jt-string">{JSON.stringify(shown)}</span>;
  }
  if (typeof value === 'number') return <span className="jt-number">{String(value)}</span>;
  if (typeof value === 'boolean') return <span className="jt-bool">{String(value)}</span>;
  return <span className="jt-null">null</span>;
}

function Node({ name, value, depth, openDepth }: { name: string | undefined; value: Json; depth: number; openDepth: number }) {
  const container = value !== null && typeof value === 'object';
  const [open, setOpen] = useState(depth < openDepth);
  const [shown, setShown] = useState(page);
  const label = name !== undefined ? <span className="jt-key">{name}: </span> : null;
  if (!container) {
    return (
      <div className="jt-row">
        {label}
        <Scalar value={value} />
      </div>
    );
  }
  const entries: Array<[string, Json]> = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
  return (
    <div className="jt-node">
      <button type="button" className="jt-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
        <span className="jt-caret" aria-hidden="true">
          {open ? '▾' : '▸'}
        </span>
        {label}
        <span className="jt-summary">{summary(value)}</span>
      </button>
      {open && (
        <div className="jt-children">
          {entries.slice(0, shown).map(([k, v]) => (
            <Node key={k} name={k} value={v} depth={depth + 1} openDepth={openDepth} />
          ))}
          {entries.length > shown && (
            <button type="button" className="btn btn-small jt-more" onClick={() => setShown(shown + page)}>
              Show {Math.min(page, entries.length - shown)} more of {entries.length - shown}
            </button>
          )}
        </div>
      )}
    </div>
  );
}

export function JsonTree({ value, openDepth = 1 }: { value: unknown; openDepth?: number }) {
  return (
    <div className="json-tree" data-testid="json-tree">
      <Node name={undefined} value={value as Json} depth={0} openDepth={openDepth} />
    </div>
  );
}

/** The parsed value when the text is a JSON object or array (not for a bare number or string). */
export function parseJsonContainer(text: string): { ok: true; value: unknown } | { ok: false } {
  const first = text.trimStart()[0];
  if (first !== '{' && first !== '[') return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}
