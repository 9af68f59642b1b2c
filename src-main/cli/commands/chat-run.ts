import type { ApprovalDecision, ApprovalMode, ChatEvent, ChatRoute, ToolPart } from '../../../src-shared/contract/chat';
import type { ToolResult } from '../../../src-shared/host-api';
import { modelEnvName } from '../../core/chat/providers';
import { CoreError } from '../../core/errors';
import type { Host } from '../../core/host';
import type { CliArgs } from '../args';
import { cliT, errorLine } from '../i18n';
import { jsonText, visibleControls } from '../output';
import { terminalFor } from '../terminal';

/**
 * `switchboard chat [--model provider:model] [--approve ask|all|readonly|none] [--tool-loading auto|all|search] "message"`: the app's tool loop in a
 * terminal. The answer streams to stdout; tool cards and approval prompts go to stderr (so stdout stays the
 * answer). `ask` prompts on a terminal and denies when there is none to ask on; `none` never runs a tool.
 * The first stderr line says where the chat goes (provider, model, endpoint, and where each came from); a model or
 * base URL the working folder's `.env` sets is used only once confirmed (asked on a terminal, recorded) or with
 * --trust-dotenv, and otherwise left out with a line saying so.
 * Exit codes: 0 answered; 1 the provider failed; 2 usage, or no provider configured; 130 stopped.
 */

export interface ChatIo {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
}

export const approvalModes: readonly ApprovalMode[] = ['ask', 'all', 'readonly', 'none'];

const short = (value: unknown, max = 200): string => {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max)}…` : text;
};

function resultText(result: ToolResult | undefined): string {
  if (!result) return '';
  return result.content.map((b) => (b.type === 'text' ? b.text : `[${b.type}]`)).join(' ');
}

/** Where a route's model or endpoint came from, in words. */
function origin(route: ChatRoute, which: 'model' | 'endpoint'): string {
  const source = which === 'model' ? route.modelSource : route.endpointSource;
  const name = which === 'model' ? modelEnvName : (route.endpointEnv ?? '');
  const file = (which === 'model' ? route.modelFile : route.endpointFile) ?? '.env';
  switch (source) {
    case 'flag':
      return cliT('cliOut.chat.fromFlag');
    case 'settings':
      return cliT('cliOut.chat.fromSettings');
    case 'env':
      return cliT('cliOut.chat.fromEnv', { name });
    case 'dotenv':
      return cliT('cliOut.chat.fromDotenv', { name, file });
    case 'default':
      return which === 'model' ? cliT('cliOut.chat.modelDefault') : cliT('cliOut.chat.endpointDefault');
  }
}

export function routeLine(route: ChatRoute): string {
  return cliT('cliOut.chat.route', {
    provider: route.label,
    model: route.model,
    endpoint: route.endpoint,
    modelFrom: origin(route, 'model'),
    endpointFrom: origin(route, 'endpoint'),
  });
}

export async function chatCommand(host: Host, args: CliArgs, io: ChatIo = process): Promise<number> {
  // Tool arguments, results and errors (servers' text) and the model's answer: control characters made visible.
  const err = (line: string): void => void io.stderr.write(`${visibleControls(line)}\n`);
  // A carriage return that ends one chunk is held for the next: before a line feed it is only a line end.
  let heldReturn = '';
  const writeAnswer = (chunk: string): void => {
    const text = heldReturn + chunk;
    heldReturn = text.endsWith('\r') ? '\r' : '';
    io.stdout.write(visibleControls(heldReturn ? text.slice(0, -1) : text));
  };
  const text = args.positionals.join(' ').trim();
  if (text === '') {
    err(`switchboard: ${cliT('cliOut.chat.needsMessage')}`);
    return 2;
  }
  const approval = args.approve ?? 'ask';
  // The same terminal prompt as the request queue's answerer (sampling, forms), so questions never overlap.
  const terminal = terminalFor(io);
  await host.settled();

  let queue = Promise.resolve();
  let answer = '';
  let runId: string | undefined;
  const early: ChatEvent[] = [];
  const tools = new Map<string, ToolPart>();
  let resolveFinished: (event: Extract<ChatEvent, { type: 'run-finished' }>) => void = () => undefined;
  const finished = new Promise<Extract<ChatEvent, { type: 'run-finished' }>>((resolve) => (resolveFinished = resolve));

  const ask = async (part: ToolPart): Promise<ApprovalDecision> => {
    if (!terminal.canAsk) {
      err(`  ✗ ${cliT('cliOut.chat.noTerminal', { server: part.server, tool: part.tool })}`);
      return 'deny';
    }
    const reply = await terminal.ask(
      cliT('cliOut.chat.allow', { server: part.server, tool: part.tool, args: short(part.args), readOnly: part.readOnly ? cliT('cliOut.chat.readOnly') : '' }),
    );
    const key = (reply ?? '').toLowerCase();
    return key === 'y' || key === 'yes' ? 'once' : key === 'a' || key === 'always' ? 'always' : 'deny';
  };

  const handle = (event: ChatEvent): void => {
    if (event.type === 'conversations-changed' || event.type === 'tools-changed' || event.type === 'direct-call' || event.runId !== runId) return;
    switch (event.type) {
      case 'text':
        answer += event.text;
        if (!args.json) writeAnswer(event.text);
        break;
      case 'tool': {
        const part = event.part;
        const before = tools.get(part.callId)?.status;
        tools.set(part.callId, part);
        if (before === part.status) break;
        if (part.status === 'awaiting-approval') {
          queue = queue.then(async () => {
            const decision = await ask(part).catch(() => 'deny' as const);
            await host.api['chat:approve'](part.callId, decision);
          });
        } else if (part.status === 'running') err(`  → ${part.server} › ${part.tool} ${short(part.args)}`);
        else if (part.status === 'done' && part.search)
          err(`  ⌕ ${part.tool} ${JSON.stringify(part.search.query)} → ${part.search.matches.map((m) => `${m.server} › ${m.tool}`).join(', ') || '∅'}`);
        else if (part.status === 'done') err(`  ← ${short(resultText(part.result))}`);
        else if (part.status === 'error') err(`  ✗ ${part.server} › ${part.tool}: ${short(part.error ?? resultText(part.result))}`);
        else if (part.status === 'denied')
          err(
            `  ✗ ${cliT('cliOut.chat.denied', { server: part.server, tool: part.tool, why: part.decision === 'auto-deny' ? cliT('cliOut.chat.deniedByFlag') : '' })}`,
          );
        else if (part.status === 'cancelled') err(`  ✗ ${cliT('cliOut.chat.cancelled', { server: part.server, tool: part.tool })}`);
        break;
      }
      case 'run-finished':
        resolveFinished(event);
        break;
      default:
        break;
    }
  };
  const off = host.api.on('chat:event', (event) => {
    if (runId === undefined) early.push(event);
    else handle(event);
  });

  try {
    const providers = host.chat.providers;
    // A cloned repository's `.env` must not send the conversation elsewhere unseen: what it chooses waits for a yes.
    const waiting = providers.unconfirmedFor(args.model);
    if (waiting !== undefined) {
      const values = waiting.choices.map((c) => `${c.name}=${c.value}`).join(', ');
      if (args.trustDotenv) providers.trustWorkingDotenvForThisRun();
      else {
        const reply = terminal.canAsk ? await terminal.ask(cliT('cliOut.chat.dotenvAsk', { file: waiting.file, values })) : undefined;
        const yes = ['y', 'yes'].includes((reply ?? '').toLowerCase());
        if (yes) {
          providers.confirmDotenv(Object.fromEntries(waiting.choices.map((c) => [c.name, c.value])));
          err(`switchboard: ${cliT('cliOut.chat.dotenvConfirmed', { file: waiting.file, values })}`);
        } else err(`switchboard: ${cliT('cliOut.chat.dotenvHeld', { file: waiting.file, values })}`);
      }
    }
    const spec = args.model ?? providers.defaultModel()?.value;
    const route = spec !== undefined ? providers.route(spec, args.model !== undefined ? 'flag' : 'default') : undefined;
    if (route !== undefined) err(`switchboard: ${routeLine(route)}`);
    let started;
    try {
      started = host.chat.send(
        { text, ...(args.model ? { model: args.model } : {}) },
        {
          approval,
          source: 'cli',
          ...(args.toolLoading ? { toolLoading: args.toolLoading } : {}),
          ...(args.toolset !== undefined ? { toolset: args.toolset } : {}),
          ...(args.servers ? { servers: args.servers } : {}),
        },
      );
    } catch (error) {
      err(`switchboard: ${errorLine(error)}`);
      return error instanceof CoreError && (error.code === 'not-configured' || error.code === 'invalid-argument') ? 2 : 1;
    }
    runId = started.runId;
    for (const event of early.splice(0)) handle(event);
    const end = await finished;
    await queue;
    if (!args.json && heldReturn !== '') io.stdout.write(visibleControls(heldReturn));
    if (!args.json && answer !== '' && !answer.endsWith('\n')) io.stdout.write('\n');
    if (args.json) {
      io.stdout.write(
        `${jsonText({ conversationId: started.conversationId, model: started.assistantMessage.model, status: end.status, text: answer, tools: [...tools.values()], ...(end.error ? { error: end.error } : {}) })}\n`,
      );
    }
    if (end.status === 'error') {
      err(`switchboard: ${end.error ? errorLine(end.error) : cliT('cliOut.chat.modelFailed')}`);
      return 1;
    }
    return end.status === 'stopped' ? 130 : 0;
  } finally {
    off();
    terminal.dispose();
  }
}
