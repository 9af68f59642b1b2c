import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { AuthView, ConsentView, ContainmentInfo, SandboxInfo, ServerView, ToolResult } from '../../src-shared/host-api';
import { isFileLockBusy } from '../core/support/file-lock';
import { FileSettings } from '../core/settings/file-store';
import { createHost, type Host } from '../core/host';
import { appDataDir, packageRoot, secretsFileOf } from '../core/support/paths';
import { nodeRuntime } from '../core/config/runtime';
import { messageOf, toHostError } from '../core/errors';
import { AuditLog } from '../core/chat/audit-log';
import { FileSecretStore } from '../core/secrets/store';
import type { JsonlTraceWriter } from '../core/trace/index';
import { parseArgs, usage as englishUsage, type CliArgs } from './args';
import { cliDiagnostic, cliNumber, cliReason, cliT, errorLine, localizedUsage, secretsCaveat, statusWord } from './i18n';
import { printToolsTable, trustCommand } from './commands/trust';
import { featureCommands, usageProblem } from './commands/features';
import { authCommands, authUsageProblem } from './commands/auth';
// install, uninstall, registry: their code (the installer, semver, node:tls) is loaded when one of them runs.
import { installCommands, installUsageProblem } from './commands/install';
import { printLogs, progressLines, traceSink } from './observe';
import { answeringOptions, RequestAnswerer, samplingApproval } from './requests';
import { displayWidth, err, firstLine, out, outJson, padDisplay, printTable, renderBlock, streamGone, visibleControls } from './output';

/** --help in the CLI's language (SWITCHBOARD_LANG, else the locale). */
const usage = localizedUsage(englishUsage);

/** Exit codes: 0 ok; 1 a tool/server failed; 2 usage or config error. */
async function main(argv: readonly string[]): Promise<number> {
  let args: CliArgs;
  try {
    args = parseArgs(argv);
  } catch (error) {
    err(`switchboard: ${messageOf(error)}\n\n${usage}`);
    return 2;
  }
  if (args.help || args.command === undefined) {
    (args.help ? out : err)(usage);
    return args.help ? 0 : 2;
  }
  const commands: Record<string, (host: Host, args: CliArgs) => Promise<number>> = {
    list,
    tools,
    call,
    ...featureCommands,
    serve,
    doctor,
    import: importCommand,
    export: exportCommand,
    secret,
    // Loaded only for chat (a chunk of the bundled CLI), like the AI SDK behind it.
    chat: async (host, a) => (await import('./commands/chat-run')).chatCommand(host, a),
    trust: trustCommand,
    ...authCommands,
    ...installCommands,
  };
  const run = commands[args.command];
  if (!run) {
    err(`switchboard: ${cliT('cli.unknownCommand', { command: args.command })}\n\n${usage}`);
    return 2;
  }
  if (args.command === 'import' && args.positionals.length !== 1) {
    err(`switchboard: ${cliT('cli.importNeedsSource')}\n\n${usage}`);
    return 2;
  }
  if (args.command === 'secret' && !['list', 'set', 'delete'].includes(args.positionals[0] ?? '')) {
    err(`switchboard: ${cliT('cli.secretNeeds')}\n\n${usage}`);
    return 2;
  }
  if (args.command === 'call' && (args.positionals.length < 2 || args.positionals.length > 3)) {
    err(`switchboard: ${cliT('cli.callNeeds')}\n\n${usage}`);
    return 2;
  }
  const problem = usageProblem(args) ?? authUsageProblem(args) ?? (await installUsageProblem(args));
  if (problem !== undefined) {
    err(`switchboard: ${problem}\n\n${usage}`);
    return 2;
  }
  const configPath = args.config ?? (process.env.SWITCHBOARD_CONFIG || undefined);
  if (configPath !== undefined && !existsSync(configPath)) {
    err(cliT('cli.configMissing', { path: configPath }));
    return 2;
  }
  const dataDir = appDataDir();
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
  const host = await createHost({
    mode: 'headless',
    dataDir,
    ...(configPath !== undefined ? { configPath } : {}),
    secrets,
    ...(trace ? { traceSink: trace } : {}),
    policy: {
      // --log-level: that level is asked of every server, whatever its config says.
      ...(args.logLevel !== undefined ? { logLevel: args.logLevel } : {}),
      // One-shot commands end before a list could change: no 2026-07-28 listen stream (a round trip saved per server).
      ...(!['serve', 'chat'].includes(args.command) ? { listen: 'skip' as const } : {}),
    },
    settings: new FileSettings(dataDir),
    runtime: nodeRuntime(),
    // The host's installer is read after the servers are spawned: they start while it is (issue 13).
    deferInstaller: true,
    // Only the long-running face follows edits of the file; one-shot commands read it once.
    watchConfig: args.command === 'serve',
    // Commands that only read or edit the file do not start servers.
    startServers: !['import', 'export', 'secret', 'registry', 'install', 'uninstall'].includes(args.command),
    loginShellPath: args.command === 'serve',
    // `serve` is the app (in a browser): an unapproved command waits for a person. A script runs what its config says.
    requireConsent: args.command === 'serve',
    // The catalogue the app (serve) browses: --registry URL or SWITCHBOARD_REGISTRY, else the official MCP Registry.
    ...((args.registry ?? process.env.SWITCHBOARD_REGISTRY) ? { registryUrl: args.registry ?? process.env.SWITCHBOARD_REGISTRY } : {}),
    logToStderr: args.command === 'serve',
    // What servers ask (sampling, forms, links): the UI answers for serve; elsewhere the terminal does, per --approve.
    ...(args.command !== 'serve' ? answeringOptions(args) : {}),
  });
  const answerer = args.command !== 'serve' ? new RequestAnswerer(host.requests, { approve: samplingApproval(args.approve) }) : undefined;
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    void host.dispose().finally(() => {
      trace?.dispose();
      process.exit(signal === 'SIGINT' ? 130 : 143);
    });
  };
  // serve treats a signal as its normal way to stop (below); other commands are interrupted.
  if (args.command !== 'serve') {
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  }
  const logs = args.logLevel !== undefined ? printLogs(host, args.logLevel) : undefined;
  try {
    const info = await host.api['app:info']();
    if (info.configError && !['serve', 'secret', 'export'].includes(args.command)) {
      err(errorLine(info.configError));
      return 2;
    }
    const code = await run(host, args);
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

async function list(host: Host, args: CliArgs): Promise<number> {
  await host.settled();
  const views = await host.api['servers:list']();
  const rows = views.map((v) => ({
    name: v.name,
    transport: v.transport,
    status: v.disabled ? 'disabled' : v.status,
    protocolVersion: v.protocolVersion ?? null,
    tools: v.tools.length,
    ...(v.error !== undefined ? { error: v.error } : {}),
  }));
  if (args.json) outJson(rows);
  else {
    printTable(
      views.map((v) => [
        v.name,
        v.transport,
        statusWord(v.disabled ? 'disabled' : v.status),
        v.protocolVersion ?? '-',
        cliNumber(v.tools.length),
        firstLine(v.error !== undefined ? cliReason(v.error, v.errorInfo) : undefined),
      ]),
      [cliT('cliOut.table.name'), cliT('cliOut.table.transport'), cliT('cliOut.table.status'), cliT('cliOut.table.protocol'), cliT('cliOut.table.tools'), cliT('cliOut.table.error')],
    );
  }
  return 0;
}

async function tools(host: Host, args: CliArgs): Promise<number> {
  const only = args.positionals[0];
  if (only !== undefined) {
    try {
      await host.settled(only);
    } catch (error) {
      err(errorLine(error));
      return 2;
    }
  } else await host.settled();
  const views = (await host.api['servers:list']()).filter((v) => only === undefined || v.name === only);
  const failed = views.filter((v) => only !== undefined && v.status !== 'ready');
  for (const v of failed) err(`${v.name}: ${statusWord(v.status)}${v.error ? ` — ${cliReason(v.error, v.errorInfo)}` : ''}`);
  const rows = views.flatMap((v) => v.tools.map((t) => ({ server: v.name, name: t.name, description: t.description ?? '', inputSchema: t.inputSchema, ...(t.review ? { review: t.review } : {}) })));
  if (args.json) outJson(rows);
  else printToolsTable(views);
  return failed.length > 0 ? 1 : 0;
}

async function call(host: Host, args: CliArgs): Promise<number> {
  const [server = '', tool = '', rawArgs] = args.positionals;
  let toolArgs: Record<string, unknown> = {};
  if (rawArgs !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(rawArgs);
    } catch (error) {
      err(`switchboard: ${cliT('cli.argsNotJson', { error: messageOf(error) })}`);
      return 2;
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      err(`switchboard: ${cliT('cli.argsNotObject')}`);
      return 2;
    }
    toolArgs = parsed as Record<string, unknown>;
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
    host.chat.audit.append({ ...audited, outcome: cancelled ? 'cancelled' : 'failed', durationMs: Math.round(performance.now() - started), ...(cancelled ? {} : { detail: failure.message }) });
    err(`switchboard: ${errorLine(error)}`);
    return 1;
  } finally {
    progress?.();
  }
  if (args.json) outJson(result);
  else out(renderResult(result));
  if (result.isError) {
    err(`switchboard: ${cliT('cli.toolError', { server, tool, text: textOf(result) || cliT('cli.noMessage') })}`);
    return 1;
  }
  return 0;
}

async function serve(host: Host, args: CliArgs): Promise<number> {
  const host_ = args.host ?? '127.0.0.1';
  if (!isLoopback(host_) && !args.allowRemote) {
    err(`switchboard: ${cliT('cli.loopbackOnly', { host: host_ })}`);
    return 2;
  }
  if (!isLoopback(host_)) err(cliT('cli.remoteWarning', { host: host_ }));
  const rendererDir = process.env.SWITCHBOARD_UI_DIR || join(packageRoot(), 'out', 'renderer');
  if (!existsSync(join(rendererDir, 'index.html'))) {
    err(`switchboard: ${cliT('cli.uiNotBuilt', { dir: rendererDir })}`);
    return 2;
  }
  // Loaded only for serve (a chunk of the bundled CLI: the HTTP/WebSocket server).
  const { startRemembered, ServeStateError } = await import('../headless/serve-state');
  // The port of the last run (when free) and, with --keep-token, its token: a tab left open reconnects.
  let started: Awaited<ReturnType<typeof startRemembered>>;
  try {
    started = await startRemembered({
      api: host.api,
      rendererDir,
      dataDir: host.dataDir,
      keepToken: args.keepToken,
      ...(args.host !== undefined ? { host: args.host } : {}),
      ...(args.port !== undefined ? { port: args.port } : {}),
    });
  } catch (error) {
    if (!(error instanceof ServeStateError)) throw error;
    // A full disk or a read-only data folder: one line that says where and what, not a stack trace.
    err(`switchboard: ${cliT('cli.serveStateWrite', { file: error.file, error: error.reason })}`);
    return 1;
  }
  const { server, portChanged, tokenKept } = started;
  out(server.url);
  err(cliT('cli.headlessReady', { config: host.configPath }));
  if (portChanged) err(cliT('cliOut.serve.portChanged'));
  else if (tokenKept) err(cliT('cliOut.serve.tokenKept'));
  const info = await host.api['app:info']();
  if (info.configError) err(errorLine(info.configError));
  await new Promise<void>((resolve) => {
    const done = (): void => resolve();
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
  await server.dispose();
  return 0;
}

/** Per server: what it is started with (env names only), whether it connects, how fast, and its stderr tail. */
async function doctor(host: Host, args: CliArgs): Promise<number> {
  const only = args.positionals[0];
  try {
    await host.settled(only);
  } catch (error) {
    err(errorLine(error));
    return 2;
  }
  const info = await host.api['app:info']();
  const views = (await host.api['servers:list']()).filter((v) => only === undefined || v.name === only);
  const failed = views.filter((v) => !v.disabled && v.status !== 'ready');
  if (args.json) {
    outJson({ configPath: info.configPath, logsDir: info.logsDir, servers: views.map(doctorRecord) });
    return failed.length > 0 ? 1 : 0;
  }
  out(cliT('cliOut.doctor.config', { path: info.configPath }));
  out(cliT('cliOut.doctor.logs', { path: info.logsDir }));
  const unapproved = views.filter((v) => v.consent !== undefined).map((v) => v.name);
  if (unapproved.length) out(cliT('cliOut.doctor.unapproved', { names: unapproved.join(', ') }));
  // `  label:  value`, the values in one column (containment's longer label only pushes its own line).
  const labels = {
    command: cliT('cliOut.doctor.commandLabel'),
    args: cliT('cliOut.doctor.argsLabel'),
    cwd: cliT('cliOut.doctor.cwdLabel'),
    env: cliT('cliOut.doctor.envLabel'),
    url: cliT('cliOut.doctor.urlLabel'),
    signIn: cliT('cliOut.doctor.signInLabel'),
    consent: cliT('cliOut.doctor.consentLabel'),
    status: cliT('cliOut.doctor.statusLabel'),
    error: cliT('cliOut.doctor.errorLabel'),
    log: cliT('cliOut.doctor.logLabel'),
    sandbox: cliT('cliOut.doctor.sandboxLabel'),
  };
  const labelWidth = Math.max(...Object.values(labels).map(displayWidth));
  const line = (label: string, value: string): void => out(`  ${padDisplay(label, labelWidth)} ${value}`);
  for (const v of views) {
    const ok = v.disabled ? cliT('cliOut.doctor.disabled') : v.status === 'ready' ? cliT('cliOut.doctor.ok') : cliT('cliOut.doctor.fail');
    out('');
    out(`[${ok}] ${v.name} (${v.transport})`);
    if (v.launch) {
      line(labels.command, v.launch.command);
      line(labels.args, JSON.stringify(v.launch.args));
      line(labels.cwd, v.launch.cwd);
      const bySource = (source: string): string => v.launch?.env.filter((e) => e.source === source).map((e) => e.name).join(' ') || '-';
      line(labels.env, cliT('cliOut.doctor.env', { defaults: bySource('default'), allowList: bySource('allow-list'), serverEnv: bySource('server-env') }));
      if (v.launch.containment) line(cliT('cliOut.doctor.containmentLabel'), containmentText(v.launch.containment));
      if (v.launch.sandbox) line(labels.sandbox, sandboxText(v.launch.sandbox));
    } else if (v.transport !== 'stdio') line(labels.url, v.target);
    if (v.auth) line(labels.signIn, authText(v.auth));
    if (v.consent) {
      const why = v.consent.reason === 'changed' ? cliT('cliOut.doctor.consentChanged') : cliT('cliOut.doctor.consentNew');
      line(labels.consent, cliT('cliOut.doctor.consent', { why, more: v.consent.enforced ? '' : cliT('cliOut.doctor.consentCliRuns') }));
      for (const detail of consentDetails(v.consent)) line('', detail);
    }
    const protocol = v.protocolVersion ? cliT('cliOut.doctor.protocol', { version: v.protocolVersion, era: v.era ?? '?' }) : '';
    const ready = v.readyMs !== undefined && v.status === 'ready' ? cliT('cliOut.doctor.readyIn', { ms: cliNumber(v.readyMs) }) : '';
    line(labels.status, cliT('cliOut.doctor.status', { status: statusWord(v.status), protocol, ready, tools: cliNumber(v.tools.length) }));
    if (v.error) line(labels.error, cliReason(v.error, v.errorInfo).replace(/\n/g, `\n${' '.repeat(labelWidth + 3)}`));
    const tail = v.stderrTail.slice(-10);
    if (tail.length) {
      out(`  ${cliT('cliOut.doctor.stderr')}`);
      for (const text of tail) out(`    ${text}`);
    }
    if (v.logFile) line(labels.log, v.logFile);
  }
  return failed.length > 0 ? 1 : 0;
}

/** What an unapproved entry's subject adds to its launch: what changed, references by name, loader variables, sampling. */
function consentDetails(c: ConsentView): string[] {
  const s = c.subject;
  const lines: string[] = [];
  if (c.changed?.length) lines.push(cliT('cliOut.doctor.consentParts', { parts: c.changed.join(', ') }));
  const refs = Object.entries(s.references ?? {}).map(([name, list]) => `${name} <- ${list.join(' ')}`);
  if (refs.length) lines.push(cliT('cliOut.doctor.consentReferences', { refs: refs.join('; ') }));
  if ('command' in s && s.loader) lines.push(cliT('cliOut.doctor.consentLoader', { vars: Object.entries(s.loader).map(([name, value]) => `${name}=${value}`).join('; ') }));
  if (s.sampling) {
    const limit = s.sampling.mode === 'never' ? '' : s.sampling.perMinute !== undefined ? cliT('cliOut.doctor.consentPerMinute', { count: cliNumber(s.sampling.perMinute) }) : cliT('cliOut.doctor.consentNoLimit');
    lines.push(cliT('cliOut.doctor.consentSampling', { mode: s.sampling.mode, limit }));
  }
  return lines;
}

/** A remote server's OAuth state for doctor (never a token: the view has none). */
function authText(a: AuthView): string {
  const at = a.issuerHost !== undefined ? cliT('cliOut.doctor.authAt', { host: a.issuerHost }) : '';
  if (a.state === 'signing-in') return cliT('cliOut.doctor.authWaiting', { where: a.authorizationHost !== undefined ? cliT('cliOut.doctor.authWhere', { host: a.authorizationHost }) : '' });
  if (a.state === 'signed-in') {
    const expiry =
      a.expiresAt === undefined ? '' : a.expiresAt > Date.now() ? cliT('cliOut.doctor.authExpiresIn', { minutes: cliNumber(Math.round((a.expiresAt - Date.now()) / 60_000)) }) : cliT('cliOut.doctor.authExpired');
    const more = a.stepUpScopes?.length ? cliT('cliOut.doctor.authMore', { scopes: a.stepUpScopes.join(' ') }) : '';
    const scopes = a.grantedScopes?.length ? cliT('cliOut.doctor.authScopes', { scopes: a.grantedScopes.join(' ') }) : '';
    return cliT('cliOut.doctor.authSignedIn', { at, scopes, expiry, more });
  }
  return cliT('cliOut.doctor.authNotSignedIn', { at, asks: a.scopes?.length ? cliT('cliOut.doctor.authAsks', { scopes: a.scopes.join(' ') }) : '' });
}

function containmentText(c: ContainmentInfo): string {
  if (c.kind === 'cgroup') return cliT('cliOut.doctor.cgroup', { path: c.path ?? '?' });
  if (c.kind === 'taskkill') return cliT('cliOut.doctor.taskkill');
  return cliT('cliOut.doctor.processGroup', { reason: c.reason !== undefined ? cliDiagnostic('containment', c.reason, c.reasonInfo) : cliT('cliOut.doctor.noCgroup') });
}

function sandboxText(s: SandboxInfo): string {
  if (s.kind === 'unavailable') return cliT('cliOut.doctor.sandboxUnavailable', { reason: s.reason !== undefined ? cliDiagnostic('sandbox', s.reason, s.reasonInfo) : '?' });
  const read = s.read.length ? s.read.join(', ') : '-';
  const write = s.write.length ? s.write.join(', ') : '-';
  return cliT('cliOut.doctor.sandbox', { kind: s.kind, read, write, network: s.network ? cliT('cliOut.yes') : cliT('cliOut.no') });
}

function doctorRecord(v: ServerView): Record<string, unknown> {
  return {
    name: v.name,
    transport: v.transport,
    status: v.disabled ? 'disabled' : v.status,
    ...(v.launch ? { command: v.launch.command, args: v.launch.args, cwd: v.launch.cwd, env: v.launch.env, containment: v.launch.containment ?? null, sandbox: v.launch.sandbox ?? null } : { url: v.target }),
    protocolVersion: v.protocolVersion ?? null,
    era: v.era ?? null,
    approved: v.consent === undefined,
    ...(v.consent ? { consent: { reason: v.consent.reason, ...(v.consent.changed ? { changed: v.consent.changed } : {}), ...v.consent.subject } } : {}),
    readyMs: v.status === 'ready' ? (v.readyMs ?? null) : null,
    tools: v.tools.length,
    ...(v.error !== undefined ? { error: v.error } : {}),
    stderrTail: v.stderrTail.slice(-10),
    ...(v.logFile ? { logFile: v.logFile } : {}),
  };
}

async function importCommand(host: Host, args: CliArgs): Promise<number> {
  const source = args.positionals[0] ?? '';
  let preview;
  try {
    preview = await host.api['config:import-preview']({ source });
  } catch (error) {
    err(`switchboard: ${errorLine(error)}`);
    return 2;
  }
  const mark = { new: '+', same: '=', conflict: '!' } as const;
  out(cliT('cliOut.import.from', { file: preview.file }));
  for (const c of preview.servers) {
    const note = c.invalid
      ? cliT('cliOut.import.cannotImport', { reason: cliReason(c.invalid, c.invalidInfo) })
      : c.status === 'new'
        ? cliT('cliOut.import.new')
        : c.status === 'same'
          ? cliT('cliOut.import.same')
          : cliT('cliOut.import.conflict');
    const secretLooking = c.secretKeys.length ? cliT('cliOut.import.secretLooking', { keys: c.secretKeys.join(', ') }) : '';
    out(`  ${c.invalid ? 'x' : mark[c.status]} ${padDisplay(c.name, 24)} ${note}${secretLooking}`);
  }
  const addable = preview.servers.filter((c) => !c.invalid && c.status === 'new').map((c) => c.name);
  const conflicts = preview.servers.filter((c) => !c.invalid && c.status === 'conflict').map((c) => c.name);
  let names = addable;
  let overwrite: string[] = [];
  if (!args.yes) {
    if (!process.stdin.isTTY) {
      const skip = conflicts.length ? cliT('cliOut.import.skipConflicts', { conflicts: cliNumber(conflicts.length) }) : '';
      out(cliT('cliOut.import.nothingChanged', { added: cliNumber(addable.length), conflicts: skip }));
      return 0;
    }
    const answer = (await ask(cliT('cliOut.import.askAdd', { added: cliNumber(addable.length) }))).toLowerCase();
    if (answer !== 'y' && answer !== 'yes') names = [];
    for (const name of conflicts) {
      if ((await ask(cliT('cliOut.import.askOverwrite', { name }))).toLowerCase().startsWith('y')) overwrite.push(name);
    }
    names = [...names, ...overwrite];
  } else overwrite = [];
  const moveSecrets = args.moveSecrets;
  const result = await host.api['config:import-apply']({ source, names: [...names, ...(args.yes ? conflicts : [])], overwrite, moveSecrets });
  if (args.json) outJson(result);
  else {
    const replaced = result.replaced.length ? cliT('cliOut.import.replaced', { names: result.replaced.join(', ') }) : '';
    out(cliT('cliOut.import.added', { names: result.added.join(', ') || cliT('cliOut.none'), replaced }));
    for (const s of result.skipped) out(cliT('cliOut.import.skipped', { name: s.name, reason: cliReason(s.reason, s.reasonInfo) }));
    if (result.secretsStored.length) out(cliT('cliOut.import.secretsStored', { names: result.secretsStored.join(', ') }));
    const warning = secretsCaveat((await host.api['app:info']()).secrets);
    if (result.secretsStored.length && warning) err(cliT('cliOut.note', { note: warning }));
  }
  out(cliT('cliOut.import.sourceKept', { path: host.configPath }));
  return 0;
}

async function exportCommand(host: Host, args: CliArgs): Promise<number> {
  try {
    process.stdout.write(await host.api['config:export'](args.positionals.length ? { names: args.positionals } : {}));
    return 0;
  } catch (error) {
    err(`switchboard: ${errorLine(error)}`);
    return 2;
  }
}

async function secret(host: Host, args: CliArgs): Promise<number> {
  const [action, name, value] = args.positionals;
  const warning = secretsCaveat((await host.api['app:info']()).secrets);
  if (action === 'list') {
    const names = await host.api['secrets:list']();
    if (args.json) outJson(names, 0);
    else for (const n of names) out(n);
    return 0;
  }
  if (!name) {
    err(`switchboard: ${cliT('cli.secretNeedsName', { action })}`);
    return 2;
  }
  if (action === 'delete') {
    let removed: boolean;
    try {
      removed = await host.api['secrets:delete'](name);
    } catch (error) {
      err(`switchboard: ${errorLine(error)}`);
      return isFileLockBusy(error) ? 1 : 2;
    }
    if (!removed) err(`switchboard: ${cliT('cli.noSecret', { name })}`);
    return removed ? 0 : 1;
  }
  if (value !== undefined) err(cliT('cliOut.secret.onCommandLine'));
  const secretValue = value ?? (await readStdin()).replace(/\r?\n$/, '');
  try {
    await host.api['secrets:set'](name, secretValue);
  } catch (error) {
    err(`switchboard: ${errorLine(error)}`);
    // Another process kept the file busy: nothing wrong with the command, run it again.
    return isFileLockBusy(error) ? 1 : 2;
  }
  if (warning) err(cliT('cliOut.note', { note: warning }));
  out(cliT('cliOut.secret.stored', { name }));
  return 0;
}

function ask(question: string): Promise<string> {
  return new Promise((resolve) => {
    process.stderr.write(visibleControls(question));
    process.stdin.resume();
    process.stdin.setEncoding('utf8');
    process.stdin.once('data', (data: string) => {
      process.stdin.pause();
      resolve(data.trim());
    });
  });
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return ask(cliT('cliOut.secret.value'));
  let text = '';
  process.stdin.setEncoding('utf8');
  for await (const chunk of process.stdin) text += String(chunk);
  return text;
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

function textOf(result: ToolResult): string {
  return result.content
    .filter((b): b is Extract<ToolResult['content'][number], { type: 'text' }> => b.type === 'text')
    .map((b) => b.text)
    .join('\n');
}

function renderResult(result: ToolResult): string {
  return result.content.map(renderBlock).join('\n');
}

/**
 * Until main() is done, one ref'd handle keeps Node running: teardown (waiting for a server to exit, then SIGKILL) must
 * never be cut short by the event loop running dry, which used to end the CLI with exit code 0, no output and
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
