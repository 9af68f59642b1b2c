import { AppsService, type SandboxOrigin } from './apps/service';
import type { AppLimits } from './apps/limits';
import { join, dirname } from 'node:path';
import type { HostApi } from '../../src-shared/host-api';
import type { ServerEntry } from '../../src-shared/schemas/config';
import { ensureConfigFile } from './config/parse';
import type { ChildRuntime } from './config/runtime';
import { ConfigStore, type ConfigSnapshot } from './config/store';
import { hostDotenvPaths, mergeHostDotenv, readHostDotenvFiles, type HostDotenvFiles } from './secrets/host-dotenv';
import { followSecrets, markSecretsRead, SecretNamesAnnouncer, type SecretsReadMark } from './secrets/follow';
import { FileSecretStore, ObservedSecretStore, type SecretStore } from './secrets/store';
import type { SettingsStore } from './settings/store';
import { AsyncDisposableStore } from './support/async-disposables';
import { tidyDataDir } from './support/data-files';
import { HostLog, RotatingLog } from './support/log-file';
import { appDataDir, configFileName, logsDirOf, secretsFileOf } from './support/paths';
import { ChildLedger } from './process/ledger';
import { mergePaths, readLoginShellPath } from './process/login-path';
import { switchboardFolders } from './process/sandbox/index';
import { EraCache } from './servers/era-cache';
import { ServerFleet, type ServerFleetOptions } from './servers/fleet';
import type { SupervisionPolicy } from './servers/policy';
import type { Redactor, TraceRecorder } from './trace/index';
import { ConsentStore } from './trust/consent';
import { PinStore, pinsFileName } from './trust/pins';
import { SkillPinStore, skillPinsFileName } from './trust/skill-pins';
import { RequestQueue } from './requests/queue';
import { ProviderSampler } from './chat/sampler';
import { samplingContextText } from './requests/sampling-context';
// Not ./auth/index: it also re-exports the loopback listener (node:http), loaded only at sign-in.
import { AuthManager } from './auth/manager';
import type { UrlOpener } from './auth/browser';
import { ChatService } from './chat/service';
import { AppService } from './services/app';
import { AuthService } from './services/auth';
import { ConfigService } from './services/config';
import { ConsentService } from './services/consent';
import { HostEventBus } from './services/events';
import { lazyInstallService, type LazyInstallService } from './services/install-lazy';
import { LoggingService } from './services/logging';
import { openUrlApi, type OpenExternal } from './services/open-url';
import { PromptsService } from './services/prompts';
import { SkillsService } from './services/skills';
import { RequestsService } from './services/requests';
import { ResourcesService } from './services/resources';
import { SecretsService } from './services/secrets';
import { ServersService } from './services/servers';
import { SettingsService } from './services/settings';
import { ToolsService } from './services/tools';
import { TraceService } from './services/trace';
import { TrustService } from './services/trust';
import { Telemetry } from './trace/telemetry';

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
  /**
   * Where MCP Apps' frames are loaded from (Electron: its `switchboard-app:` scheme). Headless `serve` starts one
   * later and sets it with `host.apps.useSandbox`; without one, `apps:open` is refused.
   */
  sandboxOrigin?: SandboxOrigin;
  /** Overrides of the per-frame rate and size limits of apps (tests, benchmarks). */
  appLimits?: Partial<AppLimits>;
  /** Watch the config file and apply external edits live (default true). */
  watchConfig?: boolean;
  /** Start the configured servers (default true; CLI commands that only edit the file pass false). */
  startServers?: boolean;
  /**
   * Start only these of the config's servers (a CLI command that names its server): the others are known — listed,
   * looked up by name — but stay stopped. Default: every enabled server.
   */
  startOnly?: readonly string[];
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
   * short command's servers start sooner (the CLI). Until then its methods wait, and a link offered is
   * announced once it is loaded. Default: loaded before any server starts.
   */
  deferInstaller?: boolean;
}

export interface Host {
  readonly api: HostApi;
  readonly configPath: string;
  readonly fleet: ServerFleet;
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
  /** MCP Apps: the open frames, their proxy pages (for the sandbox origin) and the sandbox origin itself. */
  readonly apps: AppsService;
  /** Trace ids of turns and direct calls, and the span export the `telemetry` setting turns on. */
  readonly telemetry: Telemetry;
  /** Resolves when every enabled server (or the one named) is ready or failed (for the CLI). */
  settled(name?: string): Promise<void>;
  /** Disposes what the host made, newest first: every session closes, then every child's tree ends. Idempotent. */
  dispose(): Promise<void>;
}

/**
 * Makes the host: each piece is made once what it needs exists, and is handed to `disposables` as it is made, so
 * that disposal runs newest first (the follower before what it applies to, the sessions before their trees, the
 * log last). Should a step fail, what was made so far is disposed before the error is thrown.
 */
export async function createHost(options: HostOptions): Promise<Host> {
  const disposables = new AsyncDisposableStore();
  try {
    return await makeHost(options, disposables);
  } catch (error) {
    await disposables.dispose().catch(() => undefined);
    throw error;
  }
}

async function makeHost(options: HostOptions, disposables: AsyncDisposableStore): Promise<Host> {
  const folder = await openDataFolder(options, disposables);
  const { dataDir, configPath, hostEnv, logsDir, log, listenerFailed, events } = folder;
  const following = options.watchConfig !== false;
  const running = options.startServers !== false;
  const { secrets, secretNames, secretsRead, dotenv } = openSecrets(options, folder, following);

  const store = disposables.add(new ConfigStore(configPath, { onListenerError: listenerFailed }));
  // Approvals of launches and of where secrets go; the first time a config file is seen, its entries count as approved.
  const consent = new ConsentStore(
    { file: join(dataDir, 'consent.json'), configPath, enforced: options.requireConsent ?? options.mode === 'electron' },
    undefined,
  );
  if (consent.problem) log.warn(consent.problem);
  // Seeded from the first valid version of the file (now, or later when it did not validate at first).
  const seedConsent = (snapshot: ConfigSnapshot): void => {
    if (!snapshot.error && consent.seedIfNew(snapshot.config))
      log.info(`recorded the ${Object.keys(snapshot.config.mcpServers).length} server(s) of ${configPath} as approved (first time this config is seen)`);
  };
  const initial = store.snapshot();
  seedConsent(initial);
  if (initial.error) log.warn(initial.error.message);

  // The one queue of what a person must answer: tool approvals (the chat's), sampling and elicitation (the servers').
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
  // The protocol trace is fed by every server's transports (the fleet's supervisors decorate them), so it comes first.
  const trace = disposables.add(
    new TraceService({ events, store, secrets, hostSecrets: dotenv.merged, dataDir, appVersion: '0.1.0', sink: options.traceSink }),
  );
  folder.redactLogWith(trace.redactor);
  // Trace ids for turns and direct calls, and the optional span export (the `telemetry` setting). Made before the
  // fleet, so disposed after it: the spans of requests the closing sessions end are flushed too.
  const telemetry = disposables.add(new Telemetry({ redactor: trace.redactor, log: (line) => log.warn(line), version: '0.1.0' }));
  void telemetry.configure(options.settings.telemetry?.());

  // The servers sample on the chat's providers and the chat calls the servers' tools. The fleet is made first; it
  // makes no supervisor (and so asks nothing of the chat) before `fleet.load()`, which runs once the chat exists.
  const fleet: ServerFleet = disposables.add(
    new ServerFleet(fleetOptions(options, folder, { secrets, dotenv, consent, requests, authManager, trace, telemetry, chat: () => chat })),
  );
  const apply = async (snapshot: ConfigSnapshot): Promise<void> => {
    seedConsent(snapshot);
    if (running) await fleet.apply(snapshot.config);
  };

  // One service per domain, each owning its slice of the HostApi.
  const servers = disposables.add(new ServersService(fleet, events));
  const tools = disposables.add(new ToolsService(fleet, events, telemetry));
  const app = new AppService({ mode: options.mode, configPath, logsDir, store, secrets, openPath: options.openPath });
  const config = new ConfigService({ configPath, store, secrets, hostEnv, apply, approve: (name, entry) => consent.approve(name, entry, 'form') });
  const chat = disposables.add(
    new ChatService({
      telemetry,
      tools: {
        views: () => fleet.views(),
        freshen: () => fleet.freshenTools(),
        // Through the tools service: the model's call id keys calls:progress and tools:cancel (the tool card's Cancel).
        callTool: (ref, args, signal, callId, call) =>
          tools.call(
            { server: ref.server, tool: ref.tool, args, ...(callId !== undefined ? { callId } : {}), ...(call?.task !== undefined ? { task: call.task } : {}) },
            signal,
          ),
      },
      resources: {
        // A skill's SKILL.md attached to a message: through the skill's review and digest check, not a plain read.
        read: async (server, uri) => {
          const skills = fleet.get(server).features.skills;
          if (!skills.isSkillUri(uri)) return fleet.get(server).features.resources.read(uri);
          const view = await skills.loadTrusted(uri);
          return { contents: [{ uri: view.skill.uri, mimeType: 'text/markdown', text: view.text }] };
        },
        nameOf: async (server, uri) => fleet.get(server).features.skills.nameOf(uri) ?? fleet.get(server).features.resources.nameOf(uri),
      },
      skills: {
        offered: async () => {
          const ready = fleet.views().filter((v) => v.status === 'ready' && !v.disabled && v.capabilities?.skills === true);
          const lists = await Promise.all(
            ready.map(async (v) => {
              const skills = fleet.get(v.name).features.skills;
              // The connect-time listing runs after ready: a turn that starts at once waits for it.
              await skills.settle();
              return skills.offeredSkills().map((s) => ({ server: v.name, name: s.name, description: s.description, uri: s.uri }));
            }),
          );
          return lists.flat();
        },
        load: async (server, name) => {
          const view = await fleet.get(server).features.skills.loadTrusted(name);
          return { uri: view.skill.uri, text: view.text };
        },
      },
      secrets,
      env: { env: hostEnv, dotenv: dotenv.merged, dotenvFiles: dotenv.files, dotenvPaths: dotenv.paths },
      dataDir,
      emit: (event) => events.emit('chat:event', event),
      log: (line) => log.warn(line),
      // Tool approvals wait in the one queue (kind 'tool-approval'), answered by chat:approve or requests:answer.
      requests,
    }),
  );
  // App frames: their calls go through the tools service (progress, cancel, registry), audited with the chat's log.
  const apps = disposables.add(
    new AppsService({
      fleet,
      tools,
      audit: chat.audit,
      events,
      dataDir,
      ...(options.sandboxOrigin !== undefined ? { sandbox: options.sandboxOrigin } : {}),
      ...(options.appLimits !== undefined ? { limits: options.appLimits } : {}),
      log: (line) => log.warn(line),
    }),
  );
  // At shutdown what still waits for an answer is cancelled as "shutting down" before the chat stops its runs.
  disposables.add(requests);

  const needsApproval = (name: string, entry: ServerEntry): boolean => consent.pending(name, entry) !== undefined;
  const installOptions = {
    store,
    secrets,
    dataDir,
    apply,
    events,
    needsApproval,
    ...(options.registryUrl !== undefined ? { defaultRegistry: options.registryUrl } : {}),
  };
  // Read before any server starts (nothing a child says can come meanwhile), or after their spawns (deferInstaller).
  const eagerInstall = options.deferInstaller ? undefined : lazyInstallService(installOptions, Promise.resolve());
  await eagerInstall?.ready;
  if (running) fleet.load(initial.config);
  const install = eagerInstall ?? lazyInstallService(installOptions, fleet.applied());
  log.info(`started (${options.mode}); config ${configPath}; ${Object.keys(initial.config.mcpServers).length} server(s)`);

  // Every change of the file (ours or external): apply what changed, tell the UI.
  disposables.add(
    store.onChanged((snapshot) => {
      seedConsent(snapshot);
      if (snapshot.error) log.warn(`config not applied, keeping the last good one: ${snapshot.error.message}`);
      else if (running)
        void fleet.apply(snapshot.config).then((r) => log.info(`config reloaded: +${r.added.length} −${r.removed.length} ↻${r.restarted.length}`));
      events.emit('app:changed', app.info());
      events.emit('config:changed', config.text(snapshot));
    }),
  );
  if (following) store.watch();

  const requestsService = disposables.add(new RequestsService(requests, events));
  const authService = new AuthService(fleet, {
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
    ...new SecretsService(secrets, () => apply(store.snapshot())).api,
    ...new ResourcesService(fleet).api,
    ...new PromptsService(fleet).api,
    ...new SkillsService(fleet).api,
    ...new LoggingService(fleet).api,
    ...trace.api(fleet),
    ...requestsService.api,
    ...authService.api,
    ...new ConsentService(fleet).api,
    ...install.api,
    ...new TrustService(fleet).api,
    ...apps.api,
    ...openUrlApi(options.openExternal),
    // Settings changes re-apply the config: servers whose environment or roots changed follow.
    ...new SettingsService(options.settings, () => {
      void apply(store.snapshot());
      void telemetry.configure(options.settings.telemetry?.());
    }).api,
    on: events.on,
  };

  // Made last, so disposed first: nothing it sees once the host is closing is applied.
  if (secretsRead) {
    const follower = followSecrets({
      secrets,
      from: secretsRead,
      announcer: secretNames,
      reapply: () => apply(store.snapshot()),
      // Servers waiting for a sign-in try again with what is stored now.
      signedInElsewhere: () => {
        for (const view of fleet.views())
          if (view.status === 'needs-login')
            void fleet
              .get(view.name)
              .restart()
              .catch(() => undefined);
      },
      log,
    });
    if (follower) disposables.add(follower);
  }

  return {
    api,
    configPath,
    fleet,
    config: store,
    secrets,
    requests,
    auth: authService,
    chat,
    install,
    dataDir,
    apps,
    telemetry,
    settled: (name) => fleet.settled(name),
    dispose: () => disposables.dispose(),
  };
}

/** The data folder and what is made first in it: the host's log, the ledger of its children, caches, the event bus. */
interface DataFolder {
  dataDir: string;
  configPath: string;
  hostEnv: Readonly<Record<string, string | undefined>>;
  /** Where the host's `.env` is read besides the data folder. */
  envDir: string;
  logsDir: string;
  log: HostLog;
  /** Hides in a log line what the trace hides. */
  redactLog: (text: string) => string;
  /** The trace's redactor, once the trace is made (it needs the secrets, which need the events, which need the log). */
  redactLogWith(redactor: Redactor): void;
  /** Where a throwing event listener is reported. */
  listenerFailed: (error: unknown) => void;
  ledger: ChildLedger;
  eraCache: EraCache;
  pins: PinStore;
  skillPins: SkillPinStore;
  loginPath: string | undefined;
  events: HostEventBus;
}

async function openDataFolder(options: HostOptions, disposables: AsyncDisposableStore): Promise<DataFolder> {
  const dataDir = options.dataDir ?? appDataDir(options.hostEnv);
  // The data folder is this user's alone (0700, files 0600); temp files of saves a SIGKILL interrupted are removed.
  const strays = tidyDataDir(dataDir);
  const configPath = options.configPath ?? join(dataDir, configFileName);
  if (options.configPath === undefined) ensureConfigFile(configPath, options.runtime);
  const logsDir = logsDirOf(dataDir);
  let redactor: Redactor | undefined;
  const redactLog = (text: string): string => redactor?.text(text) ?? text;
  const log = disposables.add(new HostLog(new RotatingLog(join(logsDir, 'switchboard.log'), { redact: redactLog }), options.logToStderr ?? false, redactLog));
  disposables.addFn(() => log.info('stopped; every server session closed and every process tree ended'));
  if (strays.length > 0) log.info(`removed ${strays.length} temp file(s) left by a save that did not finish`);
  const listenerFailed = (error: unknown): void => log.warn(`a host event listener failed: ${error instanceof Error ? error.message : String(error)}`);
  const ledger = disposables.add(new ChildLedger(join(dataDir, 'run')));
  const reaped = await ledger.reapOrphans();
  if (reaped > 0) log.warn(`ended ${reaped} server process tree(s) left running by a previous run that did not exit cleanly`);
  return {
    dataDir,
    configPath,
    hostEnv: options.hostEnv ?? process.env,
    envDir: options.envDir ?? process.cwd(),
    logsDir,
    log,
    redactLog,
    redactLogWith: (value) => {
      redactor = value;
    },
    listenerFailed,
    ledger,
    eraCache: new EraCache(join(dataDir, 'era-cache.json')),
    // Pinned tool definitions: a changed or new tool needs review before the model sees it.
    pins: new PinStore(join(dataDir, pinsFileName), (line) => log.warn(line)),
    // Pinned skills: a changed or new skill needs review before the model is offered it.
    skillPins: new SkillPinStore(join(dataDir, skillPinsFileName), (line) => log.warn(line)),
    loginPath: options.loginShellPath ? await readLoginShellPath() : undefined,
    events: disposables.add(new HostEventBus(listenerFailed)),
  };
}

/** The host's `.env` files (its own keys, for `${env:NAME}` and the chat's providers): apart, merged, and where. */
interface HostDotenv {
  files: HostDotenvFiles;
  merged: Record<string, string>;
  paths: { data: string; working: string };
}

function openSecrets(
  options: HostOptions,
  folder: DataFolder,
  following: boolean,
): { secrets: SecretStore; secretNames: SecretNamesAnnouncer; secretsRead: SecretsReadMark | undefined; dotenv: HostDotenv } {
  // Every change made through the host (the settings panel, an import, an install, a sign-in) is announced; one made
  // by another process is seen by the follower (made last). The trace reads its values again when `generation`
  // moves, so no writer has to tell it.
  const store = options.secrets ?? new FileSecretStore(secretsFileOf(folder.dataDir));
  const secretNames = new SecretNamesAnnouncer(store, (names) => folder.events.emit('secrets:changed', { names }));
  const secrets = new ObservedSecretStore(store, () => secretNames.announce());
  const files = readHostDotenvFiles(folder.dataDir, folder.envDir);
  return {
    secrets,
    secretNames,
    // Where the follower starts from, taken before any server uses a value.
    secretsRead: following ? markSecretsRead(secrets) : undefined,
    dotenv: { files, merged: mergeHostDotenv(files), paths: hostDotenvPaths(folder.dataDir, folder.envDir) },
  };
}

/** What the fleet is made from, besides the data folder. `chat` is asked for only once a supervisor is made. */
interface FleetParts {
  secrets: SecretStore;
  dotenv: HostDotenv;
  consent: ConsentStore;
  requests: RequestQueue;
  authManager: AuthManager;
  trace: TraceService;
  telemetry: Telemetry;
  chat: () => ChatService;
}

function fleetOptions(options: HostOptions, folder: DataFolder, parts: FleetParts): ServerFleetOptions {
  const { dataDir, configPath, hostEnv, loginPath, events } = folder;
  // The host's working folders (its .env is read from there): kept out of every sandbox unless listed.
  const workdirs = [...new Set([folder.envDir, process.cwd()])];
  const tracing = options.trace !== false || options.traceSink !== undefined;
  return {
    hostEnv,
    onListenerError: folder.listenerFailed,
    dotenv: parts.dotenv.merged,
    dotenvFiles: [parts.dotenv.files.data, parts.dotenv.files.working],
    secrets: parts.secrets,
    allowList: () => options.settings.envAllowList(),
    baseDir: dirname(configPath),
    consent: parts.consent,
    ...(options.startOnly !== undefined ? { startOnly: new Set(options.startOnly) } : {}),
    sandboxDefault: () => options.settings.sandboxDefault?.(),
    sandboxFolders: {
      own: switchboardFolders({ dataDir, configPath, env: hostEnv, envDirs: workdirs }),
      workdirs,
      privateRoot: join(dataDir, 'sandbox'),
    },
    defaultRoots: () => options.settings.defaultRoots?.(),
    ...(loginPath !== undefined ? { childPath: mergePaths(hostEnv.PATH, loginPath) } : {}),
    supervisorDeps: (name, fleet) => ({
      // The user's settings, then explicit overrides (tests, benchmarks).
      policy: { ...options.settings.supervision?.(), ...options.policy },
      eraCache: folder.eraCache,
      pins: folder.pins,
      skillPins: folder.skillPins,
      ledger: folder.ledger,
      log: new RotatingLog(join(folder.logsDir, 'servers', `${name.replace(/[^A-Za-z0-9._-]/g, '_')}.log`), { redact: folder.redactLog }),
      redact: folder.redactLog,
      emit: events.emit,
      auth: parts.authManager,
      // What servers ask of the host (sampling, elicitation): the request queue, the chat's providers and audit log.
      requests: parts.requests,
      sampler: new ProviderSampler(parts.chat().providers),
      audit: parts.chat().audit,
      // `includeContext` in a sampling request: the servers as the fleet sees them (requests/sampling-context.ts).
      samplingContext: (server, scope) => samplingContextText(server, scope, fleet.views()),
      ...(options.answerSource ? { answerSource: options.answerSource } : {}),
      ...(tracing ? { decorateTransport: parts.trace.decorateTransport, decorateFetch: parts.trace.decorateFetch } : {}),
      requestSpans: parts.telemetry.requestSpans(name),
    }),
  };
}
