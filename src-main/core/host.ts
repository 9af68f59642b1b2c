import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { HostApi } from '../../src-shared/host-api';
import type { ServerEntry } from '../../src-shared/schemas/config';
import { ensureConfigFile } from './config/parse';
import { ConfigStore, type ConfigSnapshot } from './config/store';
import { FileSecretStore, ObservedSecretStore, type SecretStore } from './secrets/store';
import type { SupervisionPolicy } from './servers/policy';
import type { Redactor, TraceRecorder } from './trace/index';
import { readDotenvFile } from './config/env';
import { EraCache } from './servers/era-cache';
import { tidyDataDir } from './support/data-files';
import { ChildLedger } from './process/ledger';
import { HostLog, RotatingLog } from './support/log-file';
import { mergePaths, readLoginShellPath } from './process/login-path';
import { appDataDir, configFileName, logsDirOf, secretsFileOf } from './support/paths';
import { Registry } from './servers/fleet';
import { switchboardFolders } from './process/sandbox/index';
import { ChatService } from './chat/service';
import { AppService } from './services/app';
import { ConfigService } from './services/config';
import { HostEventBus } from './services/events';
import { LoggingService } from './services/logging';
import { PromptsService } from './services/prompts';
import { RequestsService } from './services/requests';
import { ConsentService } from './services/consent';
import { lazyInstallService, type LazyInstallService } from './services/install-lazy';
import { ConsentStore } from './trust/consent';
import { TrustService } from './services/trust';
import { PinStore, pinsFileName } from './trust/pins';
import { RequestQueue } from './requests/queue';
import { ProviderSampler } from './chat/sampler';
import { samplingContextText } from './requests/sampling-context';
// Not ./auth/index: it also re-exports the loopback listener (node:http), loaded only at sign-in.
import { AuthManager } from './auth/manager';
import { isOAuthTokensName } from './auth/store';
import type { UrlOpener } from './auth/browser';
import { AuthService } from './services/auth';
import { openUrlApi, type OpenExternal } from './services/open-url';
import { ResourcesService } from './services/resources';
import { followSecretsFile, SecretsService, visibleSecretNames } from './services/secrets';
import { SettingsService } from './services/settings';
import { ServersService } from './services/servers';
import { ToolsService } from './services/tools';
import { TraceService } from './services/trace';
import type { ChildRuntime } from './config/runtime';
import type { SettingsStore } from './settings/store';

export interface HostOptions {
  mode: 'electron' | 'headless';
  /** Explicit servers config (`--config FILE` / `SWITCHBOARD_CONFIG`); default `<dataDir>/mcp.json`. */
  configPath?: string;
  /** The app's own folder (Electron's userData); default `appDataDir()` from ./paths. */
  dataDir?: string;
  settings: SettingsStore;
  /** How to start the bundled calculator in a first-run config. */
  runtime: ChildRuntime;
  /** The host's environment, for `${env:NAME}`; default `process.env`. Never spread into a child. */
  hostEnv?: Readonly<Record<string, string | undefined>>;
  /** Folder holding the host's `.env` besides the data dir; default the working directory. */
  envDir?: string;
  /** Read the login shell's PATH once (desktop launches miss it). */
  loginShellPath?: boolean;
  /** Supervision overrides (tests, benchmarks). */
  policy?: Partial<SupervisionPolicy>;
  /** Mirror our own log lines to stderr. */
  logToStderr?: boolean;
  /** Where `${secret:…}` values live; default a 0600 file in the data dir. */
  secrets?: SecretStore;
  /** Opens a file or folder in the OS (the desktop shell provides it; headless has none). */
  openPath?: (path: string) => Promise<boolean>;
  /** Opens an https URL in the system browser after the person consented (desktop only; headless shows the link). */
  openExternal?: OpenExternal;
  /**
   * Opens an OAuth authorization URL in the person's browser without a shell (Electron: shell.openExternal), after
   * the auth module checked it (https, or http on loopback). Absent (headless, CLI): the URL is only shown.
   */
  openAuthorizationUrl?: UrlOpener;
  /** An https Client ID Metadata Document URL for Switchboard (OAuth CIMD), used where an authorization server supports it. */
  oauthClientMetadataUrl?: string;
  /** Watch the config file and apply external edits live (default true). */
  watchConfig?: boolean;
  /** Start the configured servers (default true; CLI commands that only edit the file pass false). */
  startServers?: boolean;
  /** Another sink for every JSON-RPC message of every server, besides the trace ring (the CLI's `--trace FILE`). */
  traceSink?: TraceRecorder;
  /**
   * Whether a person can answer server requests (sampling, elicitation) and approvals: the app's UI can (default
   * true); a CLI can on a terminal. Without one every request is declined at once with `noAnswererReason`.
   */
  interactive?: boolean;
  /** Which face answers server requests, for the sampling audit entries ('app' by default; the CLI passes 'cli'). */
  answerSource?: 'app' | 'cli';
  noAnswererReason?: string;
  /** Record the protocol trace (default true; `trace:list` is then empty, unless a traceSink still wants it). */
  trace?: boolean;
  /**
   * Consent before a command runs or a secret is sent (trust/consent.ts): an unapproved entry waits in
   * `needs-approval` until a person approves it. Default: in the Electron app; the CLI passes true for `serve` (the app in a browser) and
   * false otherwise (a script runs what its config says; `doctor` lists what the app would ask about).
   */
  requireConsent?: boolean;
  /** The MCP Registry the app's catalogue browses (default the official one; `SWITCHBOARD_REGISTRY` in headless/CLI). */
  registryUrl?: string;
  /**
   * Load the installer (registry client, semver, node:tls) only once the config's servers are spawned, so that a
   * short command's servers start sooner (the CLI; issue 13). Until then its methods wait, and a link offered is
   * announced once it is loaded. Default: loaded before any server starts.
   */
  deferInstaller?: boolean;
}

export interface Host {
  readonly api: HostApi;
  readonly configPath: string;
  readonly registry: Registry;
  readonly config: ConfigStore;
  readonly secrets: SecretStore;
  /** The one queue of things a person must answer (approvals, sampling, elicitation, URL consent). */
  readonly requests: RequestQueue;
  /** OAuth sign-in of remote servers (the CLI's login/logout; `auth:login` / `auth:logout`). */
  readonly auth: AuthService;
  /** The LLM chat: providers, the tool loop, approvals, history, audit log. */
  readonly chat: ChatService;
  /** One-step installs (registry, bundles, `switchboard://install` links); the desktop shell offers links here. */
  readonly install: LazyInstallService;
  /** The app's own folder (bundles are unpacked under it). */
  readonly dataDir: string;
  /** Resolves when every enabled server (or the one named) is ready or failed (for the CLI). */
  settled(name?: string): Promise<void>;
  /** Closes every session, then ends every child's tree, in reverse order of creation. Idempotent. */
  dispose(): Promise<void>;
}

/** The host's private `.env` (data dir first, the working directory's wins). Never merged into process.env. */
export function readHostDotenv(dataDir: string, envDir: string): Record<string, string> {
  return mergeHostDotenv(readHostDotenvFiles(dataDir, envDir));
}

/** The two files as one: the working directory's values win over the data dir's. */
function mergeHostDotenv(files: { data: Record<string, string>; working: Record<string, string> }): Record<string, string> {
  return { ...files.data, ...files.working };
}

/**
 * The two `.env` files apart: a key and its base URL must come from the same one, and the working folder's (a
 * cloned repository's) chooses no model or endpoint unconfirmed. Started from the data folder, the one file is the
 * data folder's.
 */
export function readHostDotenvFiles(dataDir: string, envDir: string): { data: Record<string, string>; working: Record<string, string> } {
  const paths = hostDotenvPaths(dataDir, envDir);
  return { data: readDotenvFile(paths.data), working: paths.working === paths.data ? {} : readDotenvFile(paths.working) };
}

/** The two `.env` files' paths, real where they exist (the working folder's confirmations are keyed by it). */
export function hostDotenvPaths(dataDir: string, envDir: string): { data: string; working: string } {
  const real = (path: string): string => {
    try {
      return realpathSync(path);
    } catch {
      return resolve(path);
    }
  };
  return { data: real(join(dataDir, '.env')), working: real(join(envDir, '.env')) };
}

export async function createHost(options: HostOptions): Promise<Host> {
  const dataDir = options.dataDir ?? appDataDir(options.hostEnv);
  // The data folder is this user's alone (0700, files 0600); temp files of saves a SIGKILL interrupted are removed.
  const strays = tidyDataDir(dataDir);
  const configPath = options.configPath ?? join(dataDir, configFileName);
  if (options.configPath === undefined) ensureConfigFile(configPath, options.runtime);
  const hostEnv = options.hostEnv ?? process.env;
  const logsDir = logsDirOf(dataDir);
  // Log lines hide what the trace hides: the trace service below knows the secret values once they are read.
  const logRedaction: { redactor?: Redactor } = {};
  const redactLog = (text: string): string => logRedaction.redactor?.text(text) ?? text;
  const log = new HostLog(new RotatingLog(join(logsDir, 'switchboard.log'), { redact: redactLog }), options.logToStderr ?? false, redactLog);
  if (strays.length > 0) log.info(`removed ${strays.length} temp file(s) left by a save that did not finish`);
  const ledger = new ChildLedger(join(dataDir, 'run'));
  const reaped = await ledger.reapOrphans();
  if (reaped > 0) log.warn(`ended ${reaped} server process tree(s) left running by a previous run that did not exit cleanly`);
  const eraCache = new EraCache(join(dataDir, 'era-cache.json'));
  // Pinned tool definitions (issue 12): a changed or new tool needs review before the model sees it.
  const pins = new PinStore(join(dataDir, pinsFileName), (line) => log.warn(line));
  const loginPath = options.loginShellPath ? await readLoginShellPath() : undefined;
  const events = new HostEventBus((error) => log.warn(`a host event listener failed: ${error instanceof Error ? error.message : String(error)}`));
  const following = options.watchConfig !== false;
  // The secret names the UI was last told of: told again when they change (by this host or another process).
  let announcedSecrets = '';
  const announceSecrets = (): void => {
    const names = visibleSecretNames(secrets);
    const text = JSON.stringify(names);
    if (text === announcedSecrets) return;
    announcedSecrets = text;
    events.emit('secrets:changed', { names });
  };
  // Every change made through the host (the settings panel, an import, an install, a sign-in) is announced; one made
  // by another process is seen by the follower below. The trace reads its values again when `generation` moves (so
  // no writer has to tell it).
  const secrets = new ObservedSecretStore(options.secrets ?? new FileSecretStore(secretsFileOf(dataDir)), announceSecrets);
  announcedSecrets = JSON.stringify(visibleSecretNames(secrets));
  // Where the follower starts from, taken before any server uses a value: what the file held, and its sign-ins.
  const secretsReadAt = secrets.changesRead;
  let signInsSeen = following ? signInRecordsDigest(secrets) : '';
  const dotenvPaths = hostDotenvPaths(dataDir, options.envDir ?? process.cwd());
  const dotenvFiles = readHostDotenvFiles(dataDir, options.envDir ?? process.cwd());
  // The host's working folders (its .env is read from there): kept out of every sandbox unless listed.
  const workdirs = [...new Set([options.envDir ?? process.cwd(), process.cwd()])];
  const hostDotenv = mergeHostDotenv(dotenvFiles);
  const store = new ConfigStore(configPath);
  // Approvals of launches and of where secrets go; the first time a config file is seen, its entries count as approved.
  const firstSnapshot = store.snapshot();
  const consent = new ConsentStore({ file: join(dataDir, 'consent.json'), configPath, enforced: options.requireConsent ?? options.mode === 'electron' }, undefined);
  if (consent.problem) log.warn(consent.problem);
  // Seeded from the first valid version of the file (now, or later when it did not validate at first).
  const seedConsent = (snapshot: ConfigSnapshot): void => {
    if (!snapshot.error && consent.seedIfNew(snapshot.config)) log.info(`recorded the ${Object.keys(snapshot.config.mcpServers).length} server(s) of ${configPath} as approved (first time this config is seen)`);
  };
  seedConsent(firstSnapshot);
  const requests = new RequestQueue({
    interactive: options.interactive ?? true,
    ...(options.noAnswererReason !== undefined ? { noAnswererReason: options.noAnswererReason } : {}),
  });
  const authManager = new AuthManager({
    secrets,
    openUrl: options.openAuthorizationUrl,
    clientMetadataUrl: options.oauthClientMetadataUrl,
    log: (line) => log.info(line),
  });
  // The protocol trace is fed by every server's transports (the factory decorates them), so it comes first.
  const trace = new TraceService({ registry: () => registry, events, store, secrets, hostSecrets: hostDotenv, dataDir, appVersion: '0.1.0', sink: options.traceSink });
  logRedaction.redactor = trace.redactor;
  const registry: Registry = new Registry({
    hostEnv,
    dotenv: hostDotenv,
    dotenvFiles: [dotenvFiles.data, dotenvFiles.working],
    secrets,
    allowList: () => options.settings.envAllowList(),
    baseDir: dirname(configPath),
    consent,
    sandboxDefault: () => options.settings.sandboxDefault?.(),
    sandboxFolders: {
      own: switchboardFolders({ dataDir, configPath, env: hostEnv, envDirs: workdirs }),
      workdirs,
      privateRoot: join(dataDir, 'sandbox'),
    },
    defaultRoots: () => options.settings.defaultRoots?.(),
    ...(loginPath !== undefined ? { childPath: mergePaths(hostEnv.PATH, loginPath) } : {}),
    connectionDeps: (name) => ({
      // The user's settings, then explicit overrides (tests, benchmarks).
      policy: { ...options.settings.supervision?.(), ...options.policy },
      eraCache,
      pins,
      ledger,
      log: new RotatingLog(join(logsDir, 'servers', `${name.replace(/[^A-Za-z0-9._-]/g, '_')}.log`), { redact: redactLog }),
      emit: events.emit,
      auth: authManager,
      // What servers ask of the host (sampling, elicitation): the request queue, the chat's providers and audit log.
      // (`chat` is created below, before the first connection is made.)
      requests,
      sampler: new ProviderSampler(chat.providers),
      audit: chat.audit,
      // `includeContext` in a sampling request: the servers as the registry sees them (requests/sampling-context.ts).
      samplingContext: (server, scope) => samplingContextText(server, scope, registry.views()),
      ...(options.answerSource ? { answerSource: options.answerSource } : {}),
      ...(options.trace !== false || options.traceSink ? { decorateTransport: trace.decorateTransport, decorateFetch: trace.decorateFetch } : {}),
    }),
  });

  const initial = store.snapshot();
  if (initial.error) log.warn(initial.error.message);
  const running = options.startServers !== false;

  // One service per domain, each owning its slice of the HostApi; this function only wires them.
  const servers = new ServersService(registry, events);
  const tools = new ToolsService(registry);
  const app = new AppService({ mode: options.mode, configPath, logsDir, store, secrets, openPath: options.openPath });
  const apply = async (snapshot: ConfigSnapshot): Promise<void> => {
    seedConsent(snapshot);
    if (running) await registry.apply(snapshot.config);
  };
  const config = new ConfigService({ configPath, store, secrets, hostEnv, apply, approve: (name, entry) => consent.approve(name, entry, 'form') });
  const secretsService = new SecretsService(secrets, () => apply(store.snapshot()));
  const chat = new ChatService({
    tools: {
      views: () => registry.views(),
      // Through the tools service: the model's call id keys calls:progress and tools:cancel (the tool card's Cancel).
      callTool: (ref, args, signal, callId, call) => tools.call({ server: ref.server, tool: ref.tool, args, ...(callId !== undefined ? { callId } : {}), ...(call?.task !== undefined ? { task: call.task } : {}) }, signal),
    },
    resources: {
      read: (server, uri) => registry.get(server).features.resources.read(uri),
      nameOf: (server, uri) => registry.get(server).features.resources.nameOf(uri),
    },
    secrets,
    env: { env: hostEnv, dotenv: hostDotenv, dotenvFiles, dotenvPaths },
    dataDir,
    emit: (event) => events.emit('chat:event', event),
    log: (line) => log.warn(line),
    // Tool approvals wait in the one queue (kind 'tool-approval'), answered by chat:approve or requests:answer.
    requests,
  });

  const needsApproval = (name: string, entry: ServerEntry): boolean => consent.pending(name, entry) !== undefined;
  const installOptions = { store, secrets, dataDir, apply, events, needsApproval, ...(options.registryUrl !== undefined ? { defaultRegistry: options.registryUrl } : {}) };
  // Read before any server starts (nothing a child says can come meanwhile), or after their spawns (deferInstaller).
  const eagerInstall = options.deferInstaller ? undefined : lazyInstallService(installOptions, Promise.resolve());
  await eagerInstall?.ready;
  if (running) registry.load(initial.config);
  const install = eagerInstall ?? lazyInstallService(installOptions, registry.applied());
  log.info(`started (${options.mode}); config ${configPath}; ${Object.keys(initial.config.mcpServers).length} server(s)`);

  // Every change of the file (ours or external): apply what changed, tell the UI.
  store.on('changed', (snapshot) => {
    seedConsent(snapshot);
    if (snapshot.error) log.warn(`config not applied, keeping the last good one: ${snapshot.error.message}`);
    else if (running) void registry.apply(snapshot.config).then((r) => log.info(`config reloaded: +${r.added.length} −${r.removed.length} ↻${r.restarted.length}`));
    events.emit('app:changed', app.info());
    events.emit('config:changed', config.text(snapshot));
  });
  if (following) store.watch();
  let disposing: Promise<void> | undefined;
  const secretsFollower = following
    ? followSecretsFile(
        secrets,
        secretsReadAt,
        () => {
          if (disposing) return;
          log.info('secrets changed by another process: servers that use them follow');
          announceSecrets();
          const signIns = signInRecordsDigest(secrets);
          const signedInElsewhere = signIns !== signInsSeen;
          signInsSeen = signIns;
          void apply(store.snapshot()).then(() => {
            if (!signedInElsewhere || disposing) return;
            // Another process signed in or out (`switchboard login` while this runs): servers waiting for a sign-in
            // try again with what is stored now.
            for (const view of registry.views()) if (view.status === 'needs-login') void registry.get(view.name).restart().catch(() => undefined);
          });
        },
        (error) => log.warn(`following the secrets file failed: ${error instanceof Error ? error.message : String(error)}`),
      )
    : undefined;

  const requestsService = new RequestsService(requests, events);
  const authService = new AuthService(registry, {
    entry: (name) => store.snapshot().config.mcpServers[name],
    saveEntry: (name, entry) => config.api['servers:upsert']({ name, entry }),
    secrets,
  });
  const api: HostApi = {
    ...chat.api,
    ...app.api,
    ...servers.api,
    ...tools.api,
    ...config.api,
    ...secretsService.api,
    ...new ResourcesService(registry).api,
    ...new PromptsService(registry).api,
    ...new LoggingService(registry).api,
    ...trace.api,
    ...requestsService.api,
    ...authService.api,
    ...new ConsentService(registry).api,
    ...install.api,
    ...new TrustService(registry).api,
    ...openUrlApi(options.openExternal),
    // Settings changes re-apply the config: servers whose environment or roots changed follow.
    ...new SettingsService(options.settings, () => void apply(store.snapshot())).api,
    on: events.on,
  };

  return {
    api,
    configPath,
    registry,
    config: store,
    secrets,
    requests,
    auth: authService,
    chat,
    install,
    dataDir,
    settled: (name) => registry.settled(name),
    dispose() {
      disposing ??= (async () => {
        await secretsFollower?.dispose(); // made last: ended first, before it could apply anything more
        servers.dispose();
        tools.dispose();
        requests.dispose();
        requestsService.dispose();
        await chat.dispose();
        await store.dispose();
        await registry.dispose();
        trace.dispose();
        ledger.dispose();
        log.info('stopped; every server session closed and every process tree ended');
        log.dispose();
        events.dispose();
      })();
      return disposing;
    },
  };
}

/**
 * A digest of the sign-ins' tokens in the store: tells when another process finished a sign-in (or signed out). Only
 * the tokens: a sign-in in progress elsewhere also writes its registration and its PKCE flow record, and a server
 * restarted meanwhile would start a flow of its own over that one.
 */
function signInRecordsDigest(secrets: SecretStore): string {
  const hash = createHash('sha256');
  for (const name of secrets.list()) if (isOAuthTokensName(name)) hash.update(`${name}\0${secrets.get(name) ?? ''}\0`);
  return hash.digest('hex');
}
