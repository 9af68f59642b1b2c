import type { ServerPatch, ServersDelta, ServerView, ToolInfo } from './host-api';

/*
 * `servers:changed` carries deltas (see ServersDelta in host-api.ts). Main computes them with ServersDiffer;
 * every listener (the renderer store, over IPC or the bridge) merges them with applyServersDelta.
 */

interface Sent {
  /** The tools array as last sent. A connection replaces its array when the tools change, never edits it. */
  tools: ToolInfo[];
  /** Everything else, as JSON: small (status, stderr tail, launch), so cheap to compare on every emit. */
  rest: string;
}

/** Main's side: remembers what it last sent per server, and says what changed since. */
export class ServersDiffer {
  private sent = new Map<string, Sent>();
  private order: string[] = [];

  /** The delta from the previous call's views to these, or undefined when nothing changed. */
  next(views: readonly ServerView[]): ServersDelta | undefined {
    const sent = new Map<string, Sent>();
    const changed: ServerPatch[] = [];
    for (const view of views) {
      const { tools, ...rest } = view;
      const now: Sent = { tools, rest: JSON.stringify(rest) };
      sent.set(view.name, now);
      const before = this.sent.get(view.name);
      if (before && before.tools === tools && before.rest === now.rest) continue;
      changed.push(before && before.tools === tools ? rest : view);
    }
    const removed = [...this.sent.keys()].filter((name) => !sent.has(name));
    const order = views.map((v) => v.name);
    const reordered = order.length !== this.order.length || order.some((name, i) => name !== this.order[i]);
    this.sent = sent;
    this.order = order;
    if (changed.length === 0 && removed.length === 0 && !reordered) return undefined;
    return { changed, removed, ...(reordered ? { order } : {}) };
  }
}

/**
 * A listener's side: the list with `delta` merged in, or undefined when the delta cannot be applied to it (a
 * server it names is one the list lacks and the patch has no tools): then fetch `servers:list` again.
 * Servers the delta does not mention keep their object, so views that did not change are not re-rendered.
 */
export function applyServersDelta(views: readonly ServerView[], delta: ServersDelta): ServerView[] | undefined {
  const byName = new Map(views.map((v) => [v.name, v]));
  for (const name of delta.removed) byName.delete(name);
  for (const patch of delta.changed) {
    const tools = patch.tools ?? byName.get(patch.name)?.tools;
    if (tools === undefined) return undefined;
    byName.set(patch.name, { ...patch, tools });
  }
  const order = delta.order ?? [...views.map((v) => v.name), ...delta.changed.map((p) => p.name)];
  const result: ServerView[] = [];
  const seen = new Set<string>();
  for (const name of order) {
    const view = byName.get(name);
    if (seen.has(name)) continue;
    seen.add(name);
    if (view) result.push(view);
    else if (delta.order) return undefined;
  }
  return result;
}

/** A cheap shape check for what arrives as `servers:changed` (main is trusted; the wire is `unknown`). */
export function isServersDelta(value: unknown): value is ServersDelta {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  const names = (x: unknown): boolean => Array.isArray(x) && x.every((n) => typeof n === 'string');
  return (
    Array.isArray(record.changed) &&
    record.changed.every((p: unknown) => typeof p === 'object' && p !== null && typeof (p as { name?: unknown }).name === 'string') &&
    names(record.removed) &&
    (record.order === undefined || names(record.order))
  );
}
