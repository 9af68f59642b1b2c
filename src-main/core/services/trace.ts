import type { FetchLike, Transport } from '@modelcontextprotocol/client';
import type { HostMethods } from '../../../src-shared/host-api';
import type { Disposable } from '../../../src-shared/lifecycle';
import type { ConfigStore } from '../config/store';
import type { ServerFleet } from '../servers/fleet';
import type { SecretStore } from '../secrets/store';
import { oauthSecretValues } from '../auth/store';
import { minSecretLength } from '../trace/redact';
import {
  createRedactor,
  debugDir,
  packageVersion,
  teeRecorder,
  traceTransport,
  tracingFetch,
  TraceRing,
  writeDebugBundle,
  type Redactor,
  type TraceRecorder,
} from '../trace/index';
import type { HostEventBus } from './events';

/**
 * What a trace (the ring, the CLI's `--trace` file) redacts by value: every secret in the store, the tokens and client
 * secrets inside its OAuth records (JSON documents, redacted one by one), and the host's own `.env` values.
 */
function redactableValues(secrets: SecretStore, hostSecrets: Readonly<Record<string, string>>): string[] {
  const values = [...secrets.list().map((name) => secrets.get(name)), ...oauthSecretValues(secrets), ...Object.values(hostSecrets)];
  return values.filter((v): v is string => v !== undefined && v.length >= minSecretLength);
}

/** The values a trace redacts, kept while the store stays the same (see followSecretValues). */
export interface FollowedSecretValues {
  /** The values, read again first when the store has changed since. */
  values(): string[];
  /** Reads them again now. */
  refresh(): void;
}

/**
 * redactableValues, read once and again whenever the store's generation moved: a change made through the host at
 * once, and one another process made (`switchboard secret set`, a `login`, while this one runs) as soon as this
 * process has read it (to start a server or sign in, or the secrets file's watcher). `recheckFileMs`: a store with a
 * file is also asked to look at it (one stat) at most that often, so that such a change is redacted within that time
 * even when nothing here reads it. `hostSecrets` is asked for once, at the first read.
 */
export function followSecretValues(secrets: SecretStore, hostSecrets: () => Readonly<Record<string, string>>, recheckFileMs?: number): FollowedSecretValues {
  let values: string[] | undefined;
  let host: Readonly<Record<string, string>> | undefined;
  let seenGeneration: number | undefined;
  let checkedAt = 0;
  const refresh = (): string[] => {
    values = redactableValues(secrets, (host ??= hostSecrets()));
    seenGeneration = secrets.generation; // read after the values: reading them may have moved it
    return values;
  };
  return {
    refresh,
    values() {
      if (values === undefined) return refresh();
      if (secrets.generation === undefined) return values;
      if (recheckFileMs !== undefined && secrets.location !== undefined) {
        const now = performance.now();
        if (now - checkedAt >= recheckFileMs) {
          checkedAt = now;
          secrets.list();
        }
      }
      return secrets.generation !== seenGeneration ? refresh() : values;
    },
  };
}

export type TraceChannel = 'trace:list' | 'trace:clear' | 'debug:bundle';

export interface TraceServiceOptions {
  events: HostEventBus;
  store: ConfigStore;
  secrets: SecretStore;
  /** The host's own private values (its `.env`): never shown in a trace or a bundle. */
  hostSecrets: Readonly<Record<string, string>>;
  dataDir: string;
  appVersion: string;
  /** Another sink every message also goes to (the CLI's `--trace FILE`). */
  sink?: TraceRecorder | undefined;
}

/** How often at most the trace asks the secret store to look for another process's change of its file. */
const secretsRecheckMs = 1000;

/**
 * The protocol trace of every server (a bounded ring per server, redacted before it is kept: secret store values,
 * the host's keys, Authorization headers) and the debug bundle. The ring is fed by decorating each server's
 * transport (and its HTTP fetch) in the transport factory, so the trace is made before the servers and its channels
 * (`api`) are given the fleet once there is one.
 */
export class TraceService implements Disposable {
  /** The trace's redaction (the same values, followed the same way), for the log files. */
  readonly redactor: Redactor;
  private readonly ring: TraceRing;
  private readonly recorder: TraceRecorder;
  private readonly secrets: FollowedSecretValues;
  private readonly appended: Disposable;

  constructor(private readonly options: TraceServiceOptions) {
    this.secrets = followSecretValues(options.secrets, () => options.hostSecrets, secretsRecheckMs);
    this.secrets.refresh();
    const secretValues = (): string[] => this.secrets.values();
    this.redactor = createRedactor({ secretValues });
    this.ring = new TraceRing({ redactor: this.redactor });
    this.recorder = options.sink ? teeRecorder(this.ring, options.sink) : this.ring;
    this.appended = this.ring.onAppended((event) => options.events.emit('trace:appended', event));
  }

  /** `trace:list`, `trace:clear` and `debug:bundle` for the fleet's servers (an unknown name is refused). */
  api(fleet: ServerFleet): Pick<HostMethods, TraceChannel> {
    const options = this.options;
    const secretValues = (): string[] => this.secrets.values();
    const known = (server: string): void => void fleet.get(server);
    return {
      'trace:list': async ({ server, after, limit }) => {
        known(server);
        return this.ring.list(server, { ...(after !== undefined ? { after } : {}), ...(limit !== undefined ? { limit } : {}) });
      },
      'trace:clear': async (server) => {
        known(server);
        this.ring.clear(server);
      },
      'debug:bundle': async ({ servers }) => {
        for (const server of servers ?? []) known(server);
        const views = fleet.views();
        const names = servers ?? views.map((v) => v.name);
        this.secrets.refresh();
        return writeDebugBundle({
          dir: debugDir(options.dataDir),
          config: options.store.snapshot().config,
          views,
          traces: Object.fromEntries(names.map((name) => [name, this.ring.list(name, { limit: 500 })])),
          versions: {
            app: options.appVersion,
            sdk: packageVersion('@modelcontextprotocol/client'),
            node: process.version,
            platform: `${process.platform} ${process.arch}`,
          },
          secretValues,
          ...(servers !== undefined ? { servers } : {}),
        });
      },
    };
  }

  /** For the transport factory: every message of that transport is recorded. */
  readonly decorateTransport = (transport: Transport, info: { server: string }): Transport => traceTransport(transport, this.recorder, { server: info.server });

  /** For remote transports: HTTP status and `Mcp-*` headers of each exchange. */
  readonly decorateFetch = (fetch: FetchLike, info: { server: string }): FetchLike => tracingFetch(this.recorder, info.server, fetch);

  dispose(): void {
    this.appended.dispose();
    this.ring.dispose();
  }
}
