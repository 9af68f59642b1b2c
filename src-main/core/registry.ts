import { EventEmitter } from 'node:events';
import { isAbsolute, resolve } from 'node:path';
import type { ServerEntry, ServersConfig } from '../../src-shared/config-schema';
import type { ServerView } from '../../src-shared/host-api';
import { Connection, type ConnectionDeps, type ResolvedServer } from './connection';
import { CoreError, messageOf } from './errors';
import { buildChildEnv, readDotenvFile, resolveRecord } from './env';

type HostEnv = Readonly<Record<string, string | undefined>>;

export interface RegistryOptions {
  hostEnv: HostEnv;
  /** The host's private `.env` values (for `${env:NAME}` only). */
  dotenv: Readonly<Record<string, string>>;
  allowList: () => readonly string[];
  /** Folder relative `cwd`/`envFile` paths are resolved against (the config file's folder). */
  baseDir: string;
  /** PATH for children and command lookup: the host's merged with the login shell's (desktop launches). */
  childPath?: string;
  /** Supervision, era cache, ledger and per-server logs for each connection. */
  connectionDeps?: (name: string) => ConnectionDeps;
}

export interface RegistryEvents {
  changed: [];
}

/** Resolves one entry's references and builds its child environment. Problems become the server's error. */
export function resolveServer(name: string, entry: ServerEntry, options: RegistryOptions): ResolvedServer {
  const where = `mcpServers.${name}`;
  try {
    if (entry.command !== undefined) {
      const fileEnv = entry.envFile !== undefined ? readEnvFile(entry.envFile, options.baseDir, where) : {};
      const serverEnv = { ...fileEnv, ...resolveRecord(entry.env, `${where}.env`, options.hostEnv, options.dotenv) };
      const cwd = entry.cwd !== undefined ? absolute(entry.cwd, options.baseDir) : undefined;
      const hostEnv = options.childPath !== undefined ? { ...options.hostEnv, PATH: options.childPath } : options.hostEnv;
      return {
        name,
        entry: { ...entry, ...(cwd !== undefined ? { cwd } : {}) },
        childEnv: buildChildEnv({ hostEnv, allowList: options.allowList(), serverEnv }),
      };
    }
    return { name, entry, headers: resolveRecord(entry.headers, `${where}.headers`, options.hostEnv, options.dotenv) };
  } catch (error) {
    return { name, entry, problem: messageOf(error) };
  }
}

function absolute(path: string, baseDir: string): string {
  return isAbsolute(path) ? path : resolve(baseDir, path);
}

function readEnvFile(path: string, baseDir: string, where: string): Record<string, string> {
  const file = absolute(path, baseDir);
  try {
    return readDotenvFile(file);
  } catch (error) {
    throw new CoreError('config-invalid', `${where}.envFile: cannot read ${file} (${messageOf(error)})`);
  }
}

/** Owns one Connection per configured server; disposes them in reverse order of creation. */
export class Registry extends EventEmitter<RegistryEvents> {
  private readonly connections = new Map<string, Connection>();
  private disposed = false;

  constructor(private readonly options: RegistryOptions) {
    super();
  }

  /** Creates and starts a connection for every server of the config (disabled ones stay stopped). */
  load(config: ServersConfig): void {
    for (const [name, entry] of Object.entries(config.mcpServers)) {
      const connection = new Connection(resolveServer(name, entry, this.options), this.options.connectionDeps?.(name));
      connection.on('changed', () => this.emit('changed'));
      this.connections.set(name, connection);
      if (entry.disabled !== true) void connection.start();
    }
    this.emit('changed');
  }

  get(name: string): Connection {
    const connection = this.connections.get(name);
    if (!connection) {
      const names = [...this.connections.keys()].join(', ');
      throw new CoreError('unknown-server', `There is no server named "${name}" in the config. Configured: ${names || 'none'}.`);
    }
    return connection;
  }

  views(): ServerView[] {
    return [...this.connections.values()].map((c) => c.view());
  }

  /** Resolves when every enabled server (or the one named) is ready or failed. */
  async settled(name?: string): Promise<void> {
    const scope = name === undefined ? [...this.connections.values()] : [this.get(name)];
    for (;;) {
      const pending = scope.filter((c) => {
        const v = c.view();
        return !v.disabled && (v.status === 'starting' || v.status === 'stopped');
      });
      if (pending.length === 0) return;
      await Promise.all(pending.map((c) => c.start()));
    }
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    const all = [...this.connections.values()].reverse();
    this.connections.clear();
    // Each connection closes its session before its child; servers are independent, so close them together.
    await Promise.all(all.map((c) => c.dispose()));
    this.removeAllListeners();
  }
}
