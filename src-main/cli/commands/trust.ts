import type { ServerView, SkillInfo, ToolInfo } from '../../../src-shared/host-api';
import { isAppOnly } from '../../../src-shared/tool-ui';
import type { Host } from '../../core/host';
import { findingLines, longTextLimit, type FindingWords } from '../../core/trust/hidden-text';
import { shortDiff, type DiffWords } from '../../core/trust/pins';
import type { CliArgs } from '../args';
import { cliNumber, cliReason, cliT, errorLine, statusWord } from '../i18n';
import { err, firstLine, out, outJson, printTable } from '../output';
import { firstServer, oneShot, type CliCommand } from './command';
import { skillReviewLine } from './skills';

/*
 * `switchboard trust SERVER [TOOL…]` accepts the current definitions of a server's tools (those named, or every one
 * that needs review) and its instructions, after printing what is being accepted; `tools` marks the ones that need
 * review and shows hidden text decoded.
 */

/** The review lines' own words in the CLI's language (kinds and field names are codes; the server's text as it is). */
const findingWords: FindingWords = {
  kind: (kind) => cliT(`diagnostics.trust.kind.${kind}`),
  get separator() {
    return cliT('diagnostics.trust.separator');
  },
  tags: (text) => cliT('diagnostics.trust.tags', { text }),
  selectors: (text) => cliT('diagnostics.trust.selectors', { text }),
  line: (parts) => cliT('diagnostics.trust.finding', parts),
};
const diffWords = (): DiffWords => ({
  none: cliT('diagnostics.trust.none'),
  more: (count) => cliT('diagnostics.trust.moreLines', { count: cliNumber(count) }),
});

const needsReview = (tool: ToolInfo): boolean => tool.review !== undefined && tool.review.state !== 'trusted';

function stateWord(state: string | undefined): string {
  if (state === 'changed') return cliT('cliOut.trust.stateChanged');
  if (state === 'new') return cliT('cliOut.trust.stateNew');
  if (state === 'flagged') return cliT('cliOut.trust.stateFlagged');
  return state ?? '';
}

const markOf = (tool: ToolInfo): string => `${reviewMarkOf(tool)}${isAppOnly(tool) ? cliT('cliOut.trust.appOnlyMark') : ''}`;

const reviewMarkOf = (tool: ToolInfo): string =>
  needsReview(tool)
    ? cliT('cliOut.trust.needsReview', { state: stateWord(tool.review?.state) })
    : tool.review?.hidden?.length
      ? cliT('cliOut.trust.hiddenMark')
      : '';

/** What a person should know about one tool: why it needs review (a short diff), and its hidden text decoded. */
export function reviewLines(server: ServerView, tool: ToolInfo, options: { hint?: boolean } = {}): string[] {
  const review = tool.review;
  if (review === undefined || (review.state === 'trusted' && !review.hidden?.length)) return [];
  const lines: string[] = [];
  const names = { server: server.name, tool: tool.name };
  const accept = options.hint === false ? '' : cliT('cliOut.trust.accept', names);
  if (review.state === 'changed')
    lines.push(
      cliT('cliOut.trust.changed', { ...names, fields: (review.changed ?? []).join(cliT('diagnostics.trust.separator')), accept }),
      ...shortDiff(tool, server.instructions, 12, diffWords()).map((l) => `  ${l}`),
    );
  else if (review.state === 'new') lines.push(cliT('cliOut.trust.new', { ...names, accept }));
  else if (review.state === 'flagged') lines.push(cliT('cliOut.trust.flagged', { ...names, accept }));
  else lines.push(cliT('cliOut.trust.trustedHidden', names));
  if (review.hidden?.length) {
    if (review.state !== 'trusted') lines.push(cliT('cliOut.trust.hiddenText'));
    for (const line of findingLines(review.hidden, 200, findingWords)) lines.push(`    ${line}`);
  }
  return lines;
}

/**
 * The description as `tools` shows it: its first line, hidden characters spelled out (never printed raw to the
 * terminal), and the length of a long one.
 */
function shownDescription(tool: ToolInfo): string {
  const shown = firstLine(tool.review?.hidden?.find((f) => f.where === 'description')?.decoded ?? tool.description ?? '');
  const length = tool.description?.length ?? 0;
  return length > longTextLimit ? `${shown}${cliT('cliOut.trust.length', { n: cliNumber(length) })}` : shown;
}

/** `switchboard tools` (not --json): one row per tool, marked when it needs review; then what each marked one hides or changed. */
export function printToolsTable(views: readonly ServerView[]): void {
  const rows = views.flatMap((v) => v.tools.map((t) => [v.name, `${t.name}${markOf(t)}`, shownDescription(t)]));
  printTable(rows, [cliT('cliOut.table.server'), cliT('cliOut.table.tool'), cliT('cliOut.table.description')]);
  const notes = views.flatMap((v) => v.tools.flatMap((t) => reviewLines(v, t)));
  if (notes.length > 0) {
    out('');
    for (const line of notes) out(line);
  }
}

async function trustTools(host: Host, args: CliArgs): Promise<number> {
  const [server, ...tools] = args.positionals;
  if (server === undefined) {
    err(`switchboard: ${cliT('cliOut.trust.needs')}`);
    return 2;
  }
  try {
    await host.settled(server);
  } catch (error) {
    err(errorLine(error));
    return 2;
  }
  const view = (await host.api['servers:list']()).find((v) => v.name === server);
  if (!view || view.status !== 'ready') {
    const status = view ? statusWord(view.status) : cliT('cliOut.status.notConfigured');
    err(
      `switchboard: ${cliT('cliOut.trust.notReady', { server, status, error: view?.error ? ` — ${firstLine(cliReason(view.error, view.errorInfo))}` : '' })}`,
    );
    return 1;
  }
  // Names that are not the server's tools are taken for its skills (io.modelcontextprotocol/skills), where it has them.
  const hasSkills = view.capabilities?.skills === true;
  const skills = hasSkills ? tools.filter((name) => !view.tools.some((t) => t.name === name)) : [];
  const toolNames = tools.filter((name) => !skills.includes(name));
  const chosen = toolNames.length > 0 ? view.tools.filter((t) => toolNames.includes(t.name)) : tools.length > 0 ? [] : view.tools.filter(needsReview);
  let trusted: string[] = [];
  let trustedSkills: string[] = [];
  let skillInfos: SkillInfo[] = [];
  try {
    if (toolNames.length > 0 || tools.length === 0)
      trusted = (await host.api['tools:trust']({ server, ...(toolNames.length > 0 ? { tools: toolNames } : {}) })).trusted;
    if (hasSkills && (skills.length > 0 || tools.length === 0)) {
      skillInfos = (await host.api['skills:list'](server)).skills;
      trustedSkills = (await host.api['skills:trust']({ server, ...(skills.length > 0 ? { skills } : {}) })).trusted;
    }
  } catch (error) {
    err(`switchboard: ${errorLine(error)}`);
    return 2;
  }
  if (args.json) {
    outJson(hasSkills ? { server, trusted, skills: trustedSkills } : { server, trusted });
    return 0;
  }
  const acceptedSkills = skillInfos.filter((s) => trustedSkills.includes(s.uri));
  if (trusted.length === 0 && trustedSkills.length === 0) {
    out(cliT('cliOut.trust.nothing', { server }));
    return 0;
  }
  if (chosen.length > 0 || acceptedSkills.some((s) => s.review?.state !== 'trusted')) err(cliT('cliOut.trust.accepted'));
  for (const tool of chosen) for (const line of reviewLines(view, tool, { hint: false })) err(`  ${line}`);
  for (const skill of acceptedSkills) {
    const line = skillReviewLine(server, skill, false);
    if (line !== undefined) err(`  ${line}`);
  }
  if (trusted.length > 0) out(cliT('cliOut.trust.trusted', { n: cliNumber(trusted.length), server, tools: trusted.join(', ') }));
  if (acceptedSkills.length > 0)
    out(cliT('cliOut.trust.trustedSkills', { n: cliNumber(acceptedSkills.length), server, skills: acceptedSkills.map((s) => s.name).join(', ') }));
  return 0;
}

export const trust: CliCommand = { name: 'trust', host: oneShot, servers: firstServer, run: trustTools };
