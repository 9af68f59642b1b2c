import { randomUUID } from 'node:crypto';
import type { ToolResult } from '../../../src-shared/host-api';
import { AuditLog } from '../../core/chat/audit-log';
import { messageOf, toHostError } from '../../core/errors';
import { cliT, errorLine } from '../i18n';
import { progressLines } from '../observe';
import { err, out, outJson, renderBlock } from '../output';
import { firstServer, oneShot, type CliCommand } from './command';

/**
 * `switchboard call SERVER TOOL [ARGS_JSON] [--progress] [--task]`: one tool call, audited as the app's direct calls
 * are. Exit 1 when the call fails or its result is an error; 2 for arguments that are not a JSON object.
 */
export const call: CliCommand = {
  name: 'call',
  check: (args) => {
    if (args.positionals.length < 2 || args.positionals.length > 3) return cliT('cli.callNeeds');
    const parsed = toolArguments(args.positionals[2]);
    return typeof parsed === 'string' ? parsed : undefined;
  },
  host: oneShot,
  servers: firstServer,
  async run(host, args) {
    const [server = '', tool = '', rawArgs] = args.positionals;
    const toolArgs = toolArguments(rawArgs);
    if (typeof toolArgs === 'string') {
      err(`switchboard: ${toolArgs}`);
      return 2;
    }
    try {
      await host.settled(server);
    } catch (error) {
      err(errorLine(error));
      return 2;
    }
    let result: ToolResult;
    const callId = randomUUID();
    const progress = args.progress
      ? host.api.on('calls:progress', (event) => {
          if (event.callId === callId) for (const line of progressLines(event)) err(line);
        })
      : undefined;
    // Audited like the app's direct calls (ChatService.callDirect): source 'cli', arguments shortened the same way.
    const audited = { kind: 'call' as const, source: 'cli' as const, callId, server, tool, args: AuditLog.shorten(toolArgs), direct: true as const };
    const started = performance.now();
    try {
      result = await host.api['tools:call']({ server, tool, args: toolArgs, callId, ...(args.task ? { task: true } : {}) });
      host.chat.audit.append({ ...audited, outcome: result.isError === true ? 'tool-error' : 'ok', durationMs: Math.round(performance.now() - started) });
    } catch (error) {
      const failure = toHostError(error);
      const cancelled = failure.code === 'cancelled';
      host.chat.audit.append({
        ...audited,
        outcome: cancelled ? 'cancelled' : 'failed',
        durationMs: Math.round(performance.now() - started),
        ...(cancelled ? {} : { detail: failure.message }),
      });
      err(`switchboard: ${errorLine(error)}`);
      return 1;
    } finally {
      progress?.();
    }
    if (args.json) outJson(result);
    else out(result.content.map(renderBlock).join('\n'));
    if (result.isError) {
      err(`switchboard: ${cliT('cli.toolError', { server, tool, text: textOf(result) || cliT('cli.noMessage') })}`);
      return 1;
    }
    return 0;
  },
};

/** ARGS_JSON as the call's arguments, or what is wrong with it (a usage error, found before any server starts). */
function toolArguments(raw: string | undefined): Record<string, unknown> | string {
  if (raw === undefined) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    return cliT('cli.argsNotJson', { error: messageOf(error) });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return cliT('cli.argsNotObject');
  return parsed as Record<string, unknown>;
}

function textOf(result: ToolResult): string {
  return result.content
    .filter((b): b is Extract<ToolResult['content'][number], { type: 'text' }> => b.type === 'text')
    .map((b) => b.text)
    .join('\n');
}
