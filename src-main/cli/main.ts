import { accessSync, constants, existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { nodeRuntime } from '../core/config/runtime';
import { messageOf } from '../core/errors';
import { createHost, type Host, type HostOptions } from '../core/host';
import { FileSecretStore } from '../core/secrets/store';
import { FileSettings } from '../core/settings/file-store';
import { ensurePrivateDir } from '../core/support/data-files';
import { isFileLockBusy } from '../core/support/file-lock';
import { appDataDir, secretsFileOf } from '../core/support/paths';
import type { JsonlTraceWriter } from '../core/trace/index';
import { parseArgs, usage as englishUsage, type CliArgs } from './args';
import { strayOption, type CliCommand } from './commands/command';
import { commandNamed } from './commands/index';
import { cliT, errorLine, localizedUsage } from './i18n';
import { printLogs, traceSink } from './observe';
import { err, out, streamGone } from './output';
import { answeringOptions, RequestAnswerer, samplingApproval } from './requests';

/*
 * The CLI: parse, check, make the host the command needs, run it, exit with its code. What each command is and
 * needs is in its file under commands/ (their table: commands/index.ts).
 * Exit codes: 0 ok; 1 a request, tool or server failed; 2 usage or config error.
 */

/** --help in the CLI's language (SWITCHBOARD_LANG, else the locale). */
const usage = localizedUsage(englishUsage);

function usageError(problem: string): number {
  err(`switchboard: ${problem}\n\n${usage}`);
  return 2;
}

async function main(argv: readonly string[]): Promise<number> {
  let args: CliArgs;
  try {
    args = parseArgs(argv);
  } catch (error) {
    return usageError(messageOf(error));
  }
  if (args.help || args.command === undefined) {
    (args.help ? out : err)(usage);
    return args.help ? 0 : 2;
  }
  const command = commandNamed(args.command);
  if (!command) return usageError(cliT('cli.unknownCommand', { command: args.command }));
  const problem = (await command.check?.(args)) ?? strayOption(command, args);
  if (problem !== undefined) return usageError(problem);
  const configPath = args.config ?? (process.env.SWITCHBOARD_CONFIG || undefined);
  if (configPath !== undefined && !existsSync(configPath)) {
    err(cliT('cli.configMissing', { path: configPath }));
    return 2;
  }
  // --data-dir: made here (0700), before the secrets and the trace are opened in it; relative to the working folder.
  const dataDir = args.dataDir !== undefined ? resolve(args.dataDir) : appDataDir();
  if (args.dataDir !== undefined) {
    try {
      ensurePrivateDir(dataDir);
      accessSync(dataDir, constants.W_OK);
    } catch (error) {
      err(`switchboard: ${cliT('cli.dataDirUnusable', { dir: dataDir, error: messageOf(error) })}`);
      return 2;
    }
  }
  // Made here so that the --trace file redacts the same secret values as the host's trace.
  const secrets = new FileSecretStore(secretsFileOf(dataDir));
  let trace: JsonlTraceWriter | undefined;
  if (args.trace !== undefined) {
    try {
      trace = traceSink(args.trace, dataDir, secrets);
    } catch (error) {
      err(`switchboard: ${cliT('cli.traceWrite', { file: args.trace, error: messageOf(error) })}`);
      return 2;
    }
  }
  const registryUrl = args.registry ?? process.env.SWITCHBOARD_REGISTRY;
  const host = await createHost({
    mode: 'headless',
    dataDir,
    ...(configPath !== undefined ? { configPath } : {}),
    secrets,
    ...(trace ? { traceSink: trace } : {}),
    settings: new FileSettings(dataDir),
    runtime: nodeRuntime(),
    // The installer is read after the servers are spawned, so they start while it is.
    deferInstaller: true,
    // The catalogue the app (serve) browses: --registry URL or SWITCHBOARD_REGISTRY, else the official MCP Registry.
    ...(registryUrl ? { registryUrl } : {}),
    ...hostOptions(command, args),
  });
  return runOn(host, command, args, trace);
}

/** What createHost is asked to do for a command's needs. */
function hostOptions(command: CliCommand, args: CliArgs): Partial<HostOptions> {
  const needs = command.host;
  const only = command.servers?.(args);
  return {
    policy: {
      // --log-level: that level is asked of every server, whatever its config says.
      ...(args.logLevel !== undefined ? { logLevel: args.logLevel } : {}),
      ...(needs.listen ? {} : { listen: 'skip' as const }),
    },
    watchConfig: needs.watchConfig,
    startServers: needs.startServers,
    ...(only !== undefined ? { startOnly: only } : {}),
    loginShellPath: needs.loginShellPath,
    requireConsent: needs.requireConsent,
    logToStderr: needs.logToStderr,
    ...(needs.answers === 'terminal' ? answeringOptions(args) : {}),
  };
}

/** Runs the command on its host; the host (and the trace) are disposed however it ends. */
async function runOn(host: Host, command: CliCommand, args: CliArgs, trace: JsonlTraceWriter | undefined): Promise<number> {
  const answerer = command.host.answers === 'terminal' ? new RequestAnswerer(host.requests, { approve: samplingApproval(args.approve) }) : undefined;
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    void host.dispose().finally(() => {
      trace?.dispose();
      process.exit(signal === 'SIGINT' ? 130 : 143);
    });
  };
  if (command.host.stopOnSignal) {
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  }
  const logs = args.logLevel !== undefined ? printLogs(host, args.logLevel) : undefined;
  try {
    const info = await host.api['app:info']();
    if (info.configError && !command.host.withConfigError) {
      err(errorLine(info.configError));
      return 2;
    }
    const code = await command.run(host, args);
    // What was logged before the answer but not announced yet (logs:appended is batched).
    await logs?.drain().catch(() => undefined);
    return code;
  } finally {
    logs?.dispose();
    answerer?.dispose();
    await host.dispose();
    trace?.dispose();
  }
}

/**
 * Until main() is done, one ref'd handle keeps Node running: teardown (waiting for a server to exit, then SIGKILL) must
 * never be cut short by the event loop running dry, which would end the CLI with exit code 0, no output and
 * processes left behind. The exit code is set before the streams are flushed, and the CLI exits only after that.
 */
const keepAlive = setInterval(() => undefined, 1 << 30);

function exitWith(code: number): void {
  clearInterval(keepAlive);
  process.exitCode = code;
  let pending = 2;
  const done = (): void => {
    if (--pending === 0) process.exit(code);
  };
  for (const stream of [process.stdout, process.stderr]) {
    if (streamGone(stream)) done();
    else stream.write('', done);
  }
  // A stream that never drains (a reader that stopped reading) must not hang the CLI: exit with the code anyway.
  setTimeout(() => process.exit(code), 5000).unref();
}

main(process.argv.slice(2)).then(exitWith, (error: unknown) => {
  // A data file another process kept locked (at start: the approvals of a config seen for the first time, say).
  if (isFileLockBusy(error)) {
    err(`switchboard: ${errorLine(error)}`);
    exitWith(1);
    return;
  }
  err(`switchboard: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  exitWith(2);
});
