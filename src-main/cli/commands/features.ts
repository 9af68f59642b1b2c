import type { CompletionRef, ServerView } from '../../../src-shared/host-api';
import { messageOf } from '../../core/errors';
import type { Host } from '../../core/host';
import type { CliArgs } from '../args';
import { base64Bytes, err, firstLine, out, outJson, printTable, renderBlock } from '../output';
import { cliNumber, cliReason, cliT, errorLine, statusWord } from '../i18n';
import { firstServer, oneShot, settle, type CliCommand } from './command';

/*
 * The CLI commands of what servers offer besides tools: resources, read, prompts, prompt, complete, ping.
 * Exit codes as everywhere: 0 ok; 1 the request failed or the server is not ready; 2 usage or config (an unknown
 * server included).
 */

type Run = CliCommand['run'];

/** Waits for `server`, then makes one request: its answer, or the exit code (why, on stderr) when there is none. */
async function askServer<T>(host: Host, server: string, request: () => Promise<T>): Promise<{ answer: T } | { exit: number }> {
  const unsettled = await settle(host, server);
  if (unsettled !== undefined) return { exit: unsettled };
  try {
    return { answer: await request() };
  } catch (error) {
    err(`switchboard: ${errorLine(error)}`);
    return { exit: 1 };
  }
}

/** The servers a listing covers: the one named (an error on stderr when it is not ready), or every ready one. */
async function listed(host: Host, only: string | undefined): Promise<{ views: ServerView[]; failed: boolean }> {
  const views = (await host.api['servers:list']()).filter((v) => (only === undefined ? v.status === 'ready' : v.name === only));
  const failed = views.filter((v) => v.status !== 'ready');
  for (const v of failed) err(`${v.name}: ${statusWord(v.status)}${v.error ? ` — ${cliReason(v.error, v.errorInfo)}` : ''}`);
  return { views: views.filter((v) => v.status === 'ready'), failed: failed.length > 0 };
}

/**
 * Lists `what` on each server the listing covers, handing each answer to `take`; a listing that failed (an error
 * in the answer, or a thrown one) is said on stderr. True when anything failed (a server not ready included).
 */
async function listEach<L extends { error?: string | undefined }>(
  host: Host,
  only: string | undefined,
  what: 'resources' | 'prompts',
  list: (server: string) => Promise<L>,
  take: (server: string, listed: L) => void,
): Promise<boolean> {
  const { views, failed } = await listed(host, only);
  let listFailed = false;
  for (const v of views) {
    try {
      const answer = await list(v.name);
      if (answer.error !== undefined) {
        const vars = { server: v.name, error: answer.error };
        err(what === 'resources' ? cliT('cliOut.features.listResourcesFailed', vars) : cliT('cliOut.features.listPromptsFailed', vars));
        listFailed = true;
      }
      take(v.name, answer);
    } catch (error) {
      err(`switchboard: ${v.name}: ${errorLine(error)}`);
      listFailed = true;
    }
  }
  return failed || listFailed;
}

/** A JSON object of strings from the command line, or a message saying what is wrong with it. */
function stringRecord(raw: string | undefined, what: string, example: string): Record<string, string> | string {
  if (raw === undefined) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    return cliT('cliOut.features.notJson', { what, error: messageOf(error), example });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return cliT('cliOut.features.notObject', { what, example });
  const record: Record<string, string> = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (typeof value !== 'string') return cliT('cliOut.features.notString', { what, key, got: JSON.stringify(value) });
    record[key] = value;
  }
  return record;
}

const resources: Run = async (host, args) => {
  const only = args.positionals[0];
  const unsettled = await settle(host, only);
  if (unsettled !== undefined) return unsettled;
  const resourceRows: Array<Record<string, unknown> & { server: string; uri: string; name: string }> = [];
  const templateRows: Array<Record<string, unknown> & { server: string; uriTemplate: string; name: string }> = [];
  const anyFailed = await listEach(
    host,
    only,
    'resources',
    (server) => host.api['resources:list'](server),
    (server, list) => {
      for (const r of list.resources) {
        resourceRows.push({ server, uri: r.uri, name: r.name, ...optional({ title: r.title, description: r.description, mimeType: r.mimeType }) });
      }
      for (const t of list.templates) {
        templateRows.push({
          server,
          uriTemplate: t.uriTemplate,
          name: t.name,
          ...optional({ title: t.title, description: t.description, mimeType: t.mimeType }),
        });
      }
    },
  );
  if (args.json) outJson([...resourceRows, ...templateRows]);
  else {
    const cell = (value: unknown): string => (typeof value === 'string' ? value : '');
    printTable(
      resourceRows.map((r) => [r.server, r.uri, r.name, cell(r.mimeType) || '-', firstLine(cell(r.description))]),
      [cliT('cliOut.table.server'), cliT('cliOut.table.uri'), cliT('cliOut.table.name'), cliT('cliOut.table.mime'), cliT('cliOut.table.description')],
    );
    if (templateRows.length > 0) {
      out('');
      printTable(
        templateRows.map((t) => [t.server, t.uriTemplate, t.name, cell(t.mimeType) || '-', firstLine(cell(t.description))]),
        [cliT('cliOut.table.server'), cliT('cliOut.table.uriTemplate'), cliT('cliOut.table.name'), cliT('cliOut.table.mime'), cliT('cliOut.table.description')],
      );
    }
  }
  return anyFailed ? 1 : 0;
};

const read: Run = async (host, args) => {
  const [server = '', uri = ''] = args.positionals;
  const asked = await askServer(host, server, () => host.api['resources:read']({ server, uri }));
  if ('exit' in asked) return asked.exit;
  const view = asked.answer;
  if (args.json) {
    outJson(view);
    return 0;
  }
  for (const item of view.contents) {
    if (item.text !== undefined) out(item.text.replace(/\r?\n$/, ''));
    else out(`[blob ${item.mimeType ?? 'application/octet-stream'}, ${base64Bytes(item.blob ?? '')} bytes]`);
  }
  return 0;
};

const prompts: Run = async (host, args) => {
  const only = args.positionals[0];
  const unsettled = await settle(host, only);
  if (unsettled !== undefined) return unsettled;
  const rows: Array<{ server: string; name: string; title?: string; description?: string; arguments: unknown[] }> = [];
  const anyFailed = await listEach(
    host,
    only,
    'prompts',
    (server) => host.api['prompts:list'](server),
    (server, list) => {
      for (const p of list.prompts) rows.push({ server, name: p.name, ...optional({ title: p.title, description: p.description }), arguments: p.arguments });
    },
  );
  if (args.json) outJson(rows);
  else {
    const argText = (a: unknown): string => {
      const { name, required } = a as { name: string; required?: boolean };
      return required === true ? name : `[${name}]`;
    };
    printTable(
      rows.map((r) => [r.server, r.name, r.arguments.map(argText).join(' ') || '-', firstLine(r.description)]),
      [cliT('cliOut.table.server'), cliT('cliOut.table.prompt'), cliT('cliOut.table.arguments'), cliT('cliOut.table.description')],
    );
  }
  return anyFailed ? 1 : 0;
};

const prompt: Run = async (host, args) => {
  const [server = '', name = '', rawArgs] = args.positionals;
  const promptArgs = stringRecord(rawArgs, 'ARGS_JSON', '{"name": "Ann"}');
  if (typeof promptArgs === 'string') {
    err(`switchboard: ${promptArgs}`);
    return 2;
  }
  const asked = await askServer(host, server, () => host.api['prompts:get']({ server, name, args: promptArgs }));
  if ('exit' in asked) return asked.exit;
  const view = asked.answer;
  if (args.json) {
    outJson(view);
    return 0;
  }
  view.messages.forEach((message, i) => {
    if (i > 0) out('');
    out(`[${message.role}]`);
    out(renderBlock(message.content));
  });
  return 0;
};

const complete: Run = async (host, args) => {
  const [server = '', kind = '', target = '', argument = '', value = ''] = args.positionals;
  const context = stringRecord(args.context, '--context', '{"category": "fruit"}');
  if (typeof context === 'string') {
    err(`switchboard: ${context}`);
    return 2;
  }
  const ref: CompletionRef = kind === 'prompt' ? { type: 'prompt', name: target } : { type: 'resource', uri: target };
  const asked = await askServer(host, server, () =>
    host.api['completion:complete']({ server, ref, argument: { name: argument, value }, ...(args.context !== undefined ? { context } : {}) }),
  );
  if ('exit' in asked) return asked.exit;
  const view = asked.answer;
  if (args.json) outJson(view);
  else {
    for (const v of view.values) out(v);
    if (view.hasMore === true)
      err(
        cliT('cliOut.features.more', {
          more: view.total !== undefined ? cliT('cliOut.features.moreTotal', { total: cliNumber(view.total) }) : cliT('cliOut.features.moreUnknown'),
        }),
      );
  }
  return 0;
};

const ping: Run = async (host, args) => {
  const server = args.positionals[0] ?? '';
  const asked = await askServer(host, server, () => host.api['servers:ping'](server));
  if ('exit' in asked) return asked.exit;
  const view = asked.answer;
  if (args.json) outJson(view);
  else
    out(
      cliT('cliOut.features.ping', {
        ms: cliNumber(view.ms),
        method: view.method === 'ping' ? '' : cliT('cliOut.features.pingMethod', { method: view.method }),
      }),
    );
  return 0;
};

const atMostOneServer = (args: CliArgs): string | undefined =>
  args.positionals.length > 1 ? cliT('cli.atMostOneServer', { command: args.command ?? '' }) : undefined;

/** A problem of a JSON argument (exit 2 before any server starts), or undefined. */
function recordProblem(raw: string | undefined, what: string, example: string): string | undefined {
  const parsed = stringRecord(raw, what, example);
  return typeof parsed === 'string' ? parsed : undefined;
}

/** The commands of this family, each with its usage check and the server it names (the only one started). */
export const featureCommands: readonly CliCommand[] = [
  { name: 'resources', check: atMostOneServer, host: oneShot, servers: firstServer, run: resources },
  { name: 'read', check: (args) => (args.positionals.length !== 2 ? cliT('cli.readNeeds') : undefined), host: oneShot, servers: firstServer, run: read },
  { name: 'prompts', check: atMostOneServer, host: oneShot, servers: firstServer, run: prompts },
  {
    name: 'prompt',
    check: (args) =>
      args.positionals.length < 2 || args.positionals.length > 3 ? cliT('cli.promptNeeds') : recordProblem(args.positionals[2], 'ARGS_JSON', '{"name": "Ann"}'),
    host: oneShot,
    servers: firstServer,
    run: prompt,
  },
  {
    name: 'complete',
    check: (args) => {
      if (args.positionals.length !== 5) return cliT('cli.completeNeeds');
      const kind = args.positionals[1];
      if (kind !== 'prompt' && kind !== 'resource') return cliT('cli.completeSecond', { got: JSON.stringify(kind) });
      return recordProblem(args.context, '--context', '{"category": "fruit"}');
    },
    host: oneShot,
    servers: firstServer,
    run: complete,
  },
  { name: 'ping', check: (args) => (args.positionals.length !== 1 ? cliT('cli.pingNeeds') : undefined), host: oneShot, servers: firstServer, run: ping },
];

function optional(fields: Record<string, string | undefined>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) result[key] = value;
  return result;
}
