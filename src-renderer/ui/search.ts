/** Search as the lists do it: every whitespace-separated term must occur (case-insensitive) in one of the fields. */
export function matchesQuery(query: string, ...fields: Array<string | undefined>): boolean {
  const terms = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (terms.length === 0) return true;
  const haystack = fields
    .filter((f): f is string => typeof f === 'string')
    .join('\n')
    .toLowerCase();
  return terms.every((term) => haystack.includes(term));
}

/** Filters `items` by `query` over the text `fields(item)` gives; the same array back when the query is empty. */
export function filterItems<T>(items: readonly T[], query: string, fields: (item: T) => Array<string | undefined>): readonly T[] {
  if (query.trim() === '') return items;
  return items.filter((item) => matchesQuery(query, ...fields(item)));
}

/** A short, one-line preview of any JSON-ish value (for log data and trace rows). */
export function previewValue(value: unknown, max = 240): string {
  let text: string;
  if (typeof value === 'string') text = value;
  else {
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      text = String(value);
    }
  }
  text = text.replace(/\s+/g, ' ');
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** `12:03:04.123` in local time. */
export function formatClock(epochMs: number): string {
  const d = new Date(epochMs);
  const pad = (n: number, w = 2): string => String(n).padStart(w, '0');
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}
