import type { ServerView, ToolInfo } from '../../src-shared/host-api';
import type { Host } from '../core/host';
import { messageOf } from '../core/errors';
import { findingLines } from '../core/trust/hidden-text';
import { shortDiff } from '../core/trust/pins';
import type { CliArgs } from './args';
import { err, firstLine, out, printTable } from './output';

/*
 * `switchboard trust SERVER [TOOL…]` accepts the current definitions of a server's tools (those named, or every one
 * that needs review) and its instructions, after printing what is being accepted; `tools` marks the ones that need
 * review and shows hidden text decoded.
 */

const needsReview = (tool: ToolInfo): boolean => tool.review !== undefined && tool.review.state !== 'trusted';

const markOf = (tool: ToolInfo): string => (needsReview(tool) ? ` [${tool.review?.state} — needs review]` : tool.review?.hidden?.length ? ' [hidden text]' : '');

/** What a person should know about one tool: why it needs review (a short diff), and its hidden text decoded. */
export function reviewLines(server: ServerView, tool: ToolInfo, options: { hint?: boolean } = {}): string[] {
  const review = tool.review;
  if (review === undefined || (review.state === 'trusted' && !review.hidden?.length)) return [];
  const lines: string[] = [];
  const accept = options.hint === false ? '' : `; accept with: switchboard trust ${server.name} ${tool.name}`;
  if (review.state === 'changed') lines.push(`${server.name}/${tool.name}: changed since it was trusted (${(review.changed ?? []).join(', ')})${accept}`, ...shortDiff(tool, server.instructions).map((l) => `  ${l}`));
  else if (review.state === 'new') lines.push(`${server.name}/${tool.name}: new since the server's tools were trusted${accept}`);
  else if (review.state === 'flagged') lines.push(`${server.name}/${tool.name}: hides text in its definition${accept}`);
  else lines.push(`${server.name}/${tool.name}: trusted, with hidden text:`);
  if (review.hidden?.length) {
    if (review.state !== 'trusted') lines.push('  hidden text:');
    for (const line of findingLines(review.hidden)) lines.push(`    ${line}`);
  }
  return lines;
}

/** The description as `tools` shows it: hidden characters spelled out, never printed raw to the terminal. */
function shownDescription(tool: ToolInfo): string {
  return tool.review?.hidden?.find((f) => f.where === 'description')?.decoded ?? tool.description ?? '';
}

/** `switchboard tools` (not --json): one row per tool, marked when it needs review; then what each marked one hides or changed. */
export function printToolsTable(views: readonly ServerView[]): void {
  const rows = views.flatMap((v) => v.tools.map((t) => [v.name, `${t.name}${markOf(t)}`, firstLine(shownDescription(t))]));
  printTable(rows, ['SERVER', 'TOOL', 'DESCRIPTION']);
  const notes = views.flatMap((v) => v.tools.flatMap((t) => reviewLines(v, t)));
  if (notes.length > 0) {
    out('');
    for (const line of notes) out(line);
  }
}

export async function trustCommand(host: Host, args: CliArgs): Promise<number> {
  const [server, ...tools] = args.positionals;
  if (server === undefined) {
    err('switchboard: trust needs SERVER [TOOL…]');
    return 2;
  }
  try {
    await host.settled(server);
  } catch (error) {
    err(messageOf(error));
    return 2;
  }
  const view = (await host.api['servers:list']()).find((v) => v.name === server);
  if (!view || view.status !== 'ready') {
    err(`switchboard: ${server} is ${view?.status ?? 'not configured'}${view?.error ? ` — ${firstLine(view.error)}` : ''}; its current tools cannot be seen, so nothing was trusted.`);
    return 1;
  }
  const chosen = tools.length > 0 ? view.tools.filter((t) => tools.includes(t.name)) : view.tools.filter(needsReview);
  let trusted: string[];
  try {
    trusted = (await host.api['tools:trust']({ server, ...(tools.length > 0 ? { tools } : {}) })).trusted;
  } catch (error) {
    err(`switchboard: ${messageOf(error)}`);
    return 2;
  }
  if (args.json) {
    out(JSON.stringify({ server, trusted }, null, 2));
    return 0;
  }
  if (trusted.length === 0) {
    out(`Nothing of ${server} needed review; its current instructions are pinned.`);
    return 0;
  }
  if (chosen.length > 0) err('Accepted, as the server lists them now:');
  for (const tool of chosen) for (const line of reviewLines(view, tool, { hint: false })) err(`  ${line}`);
  out(`Trusted ${trusted.length} tool(s) of ${server}: ${trusted.join(', ')}.`);
  return 0;
}
