import type { SkillInfo } from '../../../src-shared/host-api';
import type { Host } from '../../core/host';
import type { CliArgs } from '../args';
import { cliReason, cliT, errorLine, statusWord } from '../i18n';
import { err, firstLine, out, outJson, printTable } from '../output';
import { firstServer, oneShot, settle, type CliCommand } from './command';

/*
 * `switchboard skills [SERVER]` and `switchboard skill SERVER NAME`: the Skills extension (io.modelcontextprotocol/skills)
 * of the servers that declare it. Exit codes as for prompts/prompt: 0 ok; 1 a listing or the request failed, the
 * server is not ready, or has no such skill; 2 usage or config (an unknown server included).
 */

const needsReview = (skill: SkillInfo): boolean => skill.review !== undefined && skill.review.state !== 'trusted';

function stateWord(state: string | undefined): string {
  if (state === 'changed') return cliT('cliOut.trust.stateChanged');
  if (state === 'new') return cliT('cliOut.trust.stateNew');
  if (state === 'flagged') return cliT('cliOut.trust.stateFlagged');
  return state ?? '';
}

const markOf = (skill: SkillInfo): string =>
  needsReview(skill)
    ? cliT('cliOut.trust.needsReview', { state: stateWord(skill.review?.state) })
    : skill.review?.hidden?.length
      ? cliT('cliOut.trust.hiddenMark')
      : '';

/** Why a skill needs review, and how to accept it (empty for a trusted one). */
export function skillReviewLine(server: string, skill: SkillInfo, hint = true): string | undefined {
  const review = skill.review;
  if (!review || review.state === 'trusted') return undefined;
  const names = { server, skill: skill.name };
  const accept = hint ? cliT('cliOut.trust.acceptSkill', names) : '';
  if (review.state === 'changed')
    return cliT('cliOut.trust.skillChanged', { ...names, fields: (review.changed ?? []).join(cliT('diagnostics.trust.separator')), accept });
  if (review.state === 'new') return cliT('cliOut.trust.skillNew', { ...names, accept });
  return cliT('cliOut.trust.skillFlagged', { ...names, accept });
}

async function listSkills(host: Host, args: CliArgs): Promise<number> {
  const only = args.positionals[0];
  const unsettled = await settle(host, only);
  if (unsettled !== undefined) return unsettled;
  const views = (await host.api['servers:list']()).filter((v) => (only === undefined ? v.status === 'ready' : v.name === only));
  let failed = false;
  for (const v of views.filter((view) => view.status !== 'ready')) {
    err(`${v.name}: ${statusWord(v.status)}${v.error ? ` — ${cliReason(v.error, v.errorInfo)}` : ''}`);
    failed = true;
  }
  const rows: Array<{ server: string; skill: SkillInfo }> = [];
  // Servers without the extension have no skills; naming one is not an error (an empty listing, as for prompts).
  for (const v of views.filter((view) => view.status === 'ready' && view.capabilities?.skills === true)) {
    try {
      const listed = await host.api['skills:list'](v.name);
      if (listed.error !== undefined) {
        err(cliT('cliOut.features.listSkillsFailed', { server: v.name, error: listed.error }));
        failed = true;
      }
      for (const skill of listed.skills) rows.push({ server: v.name, skill });
    } catch (error) {
      err(`switchboard: ${v.name}: ${errorLine(error)}`);
      failed = true;
    }
  }
  if (args.json) outJson(rows.map(({ server, skill }) => ({ server, name: skill.name, description: skill.description, uri: skill.uri })));
  else {
    printTable(
      rows.map(({ server, skill }) => [server, `${skill.name}${markOf(skill)}`, firstLine(skill.description), skill.uri]),
      [cliT('cliOut.table.server'), cliT('cliOut.table.skill'), cliT('cliOut.table.description'), cliT('cliOut.table.uri')],
    );
    const notes = rows.flatMap(({ server, skill }) => skillReviewLine(server, skill) ?? []);
    if (notes.length > 0) {
      out('');
      for (const line of notes) out(line);
    }
  }
  return failed ? 1 : 0;
}

async function showSkill(host: Host, args: CliArgs): Promise<number> {
  const [server = '', name = ''] = args.positionals;
  const unsettled = await settle(host, server);
  if (unsettled !== undefined) return unsettled;
  try {
    const view = await host.api['skills:get']({ server, name });
    if (args.json) outJson(view.result);
    else {
      out(view.text.replace(/\r?\n$/, ''));
      const line = skillReviewLine(server, view.skill);
      if (line !== undefined) err(line);
    }
    return 0;
  } catch (error) {
    err(`switchboard: ${errorLine(error)}`);
    return 1;
  }
}

const atMostOneServer = (args: CliArgs): string | undefined =>
  args.positionals.length > 1 ? cliT('cli.atMostOneServer', { command: args.command ?? '' }) : undefined;

export const skillCommands: readonly CliCommand[] = [
  { name: 'skills', check: atMostOneServer, host: oneShot, servers: firstServer, run: listSkills },
  {
    name: 'skill',
    check: (args) => (args.positionals.length !== 2 ? cliT('cli.skillNeeds') : undefined),
    host: oneShot,
    servers: firstServer,
    run: showSkill,
  },
];
