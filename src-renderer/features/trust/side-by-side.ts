import { diffLines } from 'diff';
import { revealHidden } from '../../../src-shared/hidden-text';
import type { PinnedDefinition, ToolDefinitionField, ToolInfo } from '../../../src-shared/host-api';

/** One row of a side-by-side diff: the pinned line on the left, the current one on the right. */
export interface DiffRow {
  kind: 'same' | 'removed' | 'added' | 'changed';
  left?: string;
  right?: string;
}

/** A field as text for a diff: strings as they are, JSON pretty-printed, hidden characters spelled out; `none` for no value. */
export function fieldText(value: unknown, none = '(none)'): string {
  if (value === undefined) return none;
  return revealHidden(typeof value === 'string' ? value : JSON.stringify(value, null, 2));
}

/** Lines of `before` and `after` side by side: a run of removed lines next to the added run that replaced it. */
export function sideBySide(before: string, after: string): DiffRow[] {
  const rows: DiffRow[] = [];
  const lines = (value: string): string[] => value.replace(/\n$/, '').split('\n');
  let removed: string[] = [];
  const flush = (added: string[]): void => {
    const n = Math.max(removed.length, added.length);
    for (let i = 0; i < n; i++) {
      const left = removed[i];
      const right = added[i];
      if (left !== undefined && right !== undefined) rows.push({ kind: 'changed', left, right });
      else if (left !== undefined) rows.push({ kind: 'removed', left });
      else if (right !== undefined) rows.push({ kind: 'added', right });
    }
    removed = [];
  };
  const ended = (text: string): string => (text.endsWith('\n') ? text : `${text}\n`);
  for (const part of diffLines(ended(before), ended(after))) {
    if (part.removed) {
      flush([]);
      removed = lines(part.value);
    } else if (part.added) flush(lines(part.value));
    else {
      flush([]);
      for (const line of lines(part.value)) rows.push({ kind: 'same', left: line, right: line });
    }
  }
  flush([]);
  return rows;
}

/** The changed fields of a tool, each as the pinned text and the current one (`none`: a side without a value, in the UI's words). */
export function changedFieldTexts(
  tool: ToolInfo,
  instructions: string | undefined,
  none = '(none)',
): Array<{ field: ToolDefinitionField; before: string; after: string }> {
  const review = tool.review;
  if (review?.state !== 'changed') return [];
  const pinned: PinnedDefinition = review.pinned ?? {};
  return (review.changed ?? []).map((field) => ({
    field,
    before: fieldText(pinned[field], none),
    after: fieldText(currentValue(tool, field, instructions), none),
  }));
}

/** A field's current value: `ui` and `appHtml` (MCP Apps) live in the tool's `_meta.ui` and its app's digest. */
function currentValue(tool: ToolInfo, field: ToolDefinitionField, instructions: string | undefined): unknown {
  if (field === 'instructions') return instructions ?? '';
  if (field === 'ui') return (tool._meta as { ui?: unknown } | undefined)?.ui;
  if (field === 'appHtml') return tool.app?.digest;
  return tool[field];
}
