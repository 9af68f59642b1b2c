import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, isAbsolute, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { SandboxSetting, ServerEntry } from '../../../src-shared/schemas/config';
import { CoreError, messageOf } from '../errors';
import { effectiveSandbox, expandPath, type SandboxRequest } from '../process/sandbox/index';
import { privateFolderOf } from '../process/sandbox/private-folder';
import {
  assertEnvFileNames,
  assertNoHostKey,
  buildChildEnv,
  hostKeys,
  MissingInputError,
  readDotenvFile,
  resolveRecord,
  type ChildEnv,
  type HostKey,
  type ReferenceContext,
} from './env';

/*
 * Config resolution: one `mcpServers` entry, with its references resolved, its child environment built by the
 * whitelist rule, its paths made absolute, its sandbox and roots settled — everything a server needs to start.
 */

/** Everything a server needs, already resolved (env references, child environment). */
export interface ResolvedServer {
  name: string;
  entry: ServerEntry;
  /** For stdio: the child's whole environment (built by the whitelist rule). */
  childEnv?: ChildEnv;
  /** For stdio: the folder a relative `command` starts in — the entry's cwd, else the config file's folder. */
  commandBase?: string;
  /** For remote: headers with references resolved. */
  headers?: Record<string, string>;
  /** A problem found while resolving (e.g. an unset ${env:NAME}); the server fails with it. */
  problem?: string;
  /** The problem's data (a CoreError's: reason, where, name…), so that it is worded in the person's language. */
  problemData?: Record<string, unknown>;
  /** The `${input:ID}` the user must answer before this server can start. */
  needsInput?: string;
  /** For stdio: the sandbox it runs in (the entry's `sandbox`, else the settings default), paths absolute. */
  sandbox?: SandboxRequest;
  /** Its roots (the entry's `roots`, else the settings' default), resolved to file:// URIs. */
  roots?: RootView[];
}

/** One root as `roots/list` answers it. */
export interface RootView {
  uri: string;
  name?: string;
}

/** What resolving an entry reads besides the entry: the host's environment and keys, the settings' defaults. */
export interface ResolveOptions extends ReferenceContext {
  allowList: () => readonly string[];
  /** Folder relative `cwd`/`envFile` paths (and a relative `command` without a `cwd`) are resolved against (the config file's folder). */
  baseDir: string;
  /** PATH for children and command lookup: the host's merged with the login shell's (desktop launches). */
  childPath?: string;
  /** The settings' default `roots` for entries without their own (paths relative to `baseDir`, or file:// URIs). */
  defaultRoots?: () => readonly string[] | undefined;
  /** The settings' default `sandbox` for stdio entries without one of their own. */
  sandboxDefault?: () => SandboxSetting | undefined;
  /**
   * What sandboxes keep out (Switchboard's own folders, the host's working folders) and where each server's private
   * sandbox folder goes (`privateRoot/<name>`, removed with the entry).
   */
  sandboxFolders?: { own: string[]; workdirs: string[]; privateRoot: string };
}

/** What makes two definitions the same server: the entry and everything resolved from it. */
export function fingerprint(server: ResolvedServer): string {
  return JSON.stringify([launchPart(server.entry), server.childEnv?.env ?? null, server.headers ?? null, server.problem ?? null, server.sandbox ?? null]);
}

/**
 * Resolves one entry's references and builds its child environment. Problems become the server's error — among
 * them any value that would hand the server one of the host's own LLM keys (by name or by value, whatever the
 * route), unless the user allow-listed that key's name.
 */
export function resolveServer(name: string, entry: ServerEntry, options: ResolveOptions): ResolvedServer {
  const resolved = resolveLaunch(name, entry, options);
  if (resolved.problem !== undefined) return resolved;
  try {
    return { ...resolved, roots: resolveRoots(entry.roots ?? options.defaultRoots?.() ?? [], options.baseDir) };
  } catch (error) {
    return { ...resolved, problem: `mcpServers.${name}.${messageOf(error)}` };
  }
}

/**
 * The config's `roots` (absolute or relative paths, `~/…`, or file:// URIs) as `roots/list` entries: relative paths
 * resolve against `baseDir` (the config file's folder). Throws on a URI that is not file:// (say which).
 */
export function resolveRoots(list: readonly string[], baseDir: string): RootView[] {
  const out: RootView[] = [];
  for (const raw of list) {
    const value = raw.trim();
    if (value === '') continue;
    let path: string;
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
      if (!value.toLowerCase().startsWith('file://')) throw new Error(`roots: "${value}" is not a folder path or file:// URI`);
      try {
        path = fileURLToPath(value);
      } catch (error) {
        throw new Error(`roots: "${value}" is not a valid file:// URI (${messageOf(error)})`, { cause: error });
      }
    } else if (value === '~' || value.startsWith('~/')) path = resolve(homedir(), value.slice(2));
    else path = isAbsolute(value) ? value : resolve(baseDir, value);
    const uri = pathToFileURL(path).href;
    if (out.some((r) => r.uri === uri)) continue;
    out.push({ uri, name: basename(path) || path });
  }
  return out;
}

/** The entry without what changes nothing about its launch (roots, sampling policy): those apply without a restart. */
function launchPart(entry: ServerEntry): ServerEntry {
  const { roots, sampling, ...launch } = entry;
  void roots;
  void sampling;
  return launch;
}

function resolveLaunch(name: string, entry: ServerEntry, options: ResolveOptions): ResolvedServer {
  const where = `mcpServers.${name}`;
  try {
    const keys = hostKeys(options);
    if (entry.command !== undefined) {
      const envFile = entry.envFile !== undefined ? absolute(entry.envFile, options.baseDir) : undefined;
      const fileEnv = envFile !== undefined ? readEnvFile(envFile, where, options) : {};
      const serverEnv = { ...fileEnv, ...resolveRecord(entry.env, `${where}.env`, options) };
      const cwd = entry.cwd !== undefined ? absolute(entry.cwd, options.baseDir) : undefined;
      const hostEnv = options.childPath !== undefined ? { ...options.hostEnv, PATH: options.childPath } : options.hostEnv;
      const childEnv = buildChildEnv({ hostEnv, allowList: options.allowList(), serverEnv });
      for (const [variable, value] of Object.entries(childEnv.env)) {
        const raw = entry.env?.[variable];
        const at =
          childEnv.sources[variable] !== 'server-env'
            ? `${where}: ${variable} (${childEnv.sources[variable] === 'allow-list' ? 'on the allow-list' : 'inherited'})`
            : raw !== undefined || envFile === undefined
              ? `${where}.env.${variable}`
              : `${where}.envFile ${envFile}: ${variable}`;
        assertNoHostKey(value, at, raw, keys, options);
      }
      assertNoKeyInLine(entry.command, entry.args ?? [], where, keys, options);
      const sandbox = effectiveSandbox(entry.sandbox, options.sandboxDefault?.());
      const home = options.hostEnv.HOME ?? homedir();
      const absoluteIn = (paths: string[]): string[] => paths.map((p) => expandPath(p, home, options.baseDir));
      const around = options.sandboxFolders;
      const folders = around ? { folders: { own: around.own, workdirs: around.workdirs, private: privateFolderOf(around.privateRoot, name) } } : {};
      return {
        name,
        entry: { ...entry, ...(cwd !== undefined ? { cwd } : {}) },
        commandBase: cwd ?? options.baseDir,
        childEnv,
        ...(sandbox ? { sandbox: { ...sandbox, allowRead: absoluteIn(sandbox.allowRead), allowWrite: absoluteIn(sandbox.allowWrite), ...folders } } : {}),
      };
    }
    const headers = resolveRecord(entry.headers, `${where}.headers`, options);
    for (const [header, value] of Object.entries(headers)) assertNoHostKey(value, `${where}.headers.${header}`, entry.headers?.[header], keys, options);
    if (entry.url !== undefined) assertNoHostKey(entry.url, `${where}.url`, undefined, keys, options);
    return { name, entry, headers };
  } catch (error) {
    return {
      name,
      entry,
      problem: messageOf(error),
      ...(error instanceof CoreError && error.data !== undefined ? { problemData: error.data } : {}),
      ...(error instanceof MissingInputError ? { needsInput: error.inputId } : {}),
    };
  }
}

function absolute(path: string, baseDir: string): string {
  return isAbsolute(path) ? path : resolve(baseDir, path);
}

/** A command line is seen by every process on the machine (`ps`): no host key in it, literal or not. */
function assertNoKeyInLine(command: string, args: readonly string[], where: string, keys: readonly HostKey[], context: ReferenceContext): void {
  assertNoHostKey(command, `${where}.command`, undefined, keys, context);
  args.forEach((arg, index) => assertNoHostKey(arg, `${where}.args[${index}]`, undefined, keys, context));
}

function readEnvFile(file: string, where: string, context: ReferenceContext): Record<string, string> {
  // Unlike the host's optional .env, a server's envFile was named on purpose: a missing one is an error.
  if (!existsSync(file))
    throw new CoreError(
      'config-invalid',
      `${where}.envFile: ${file} does not exist. Create it, or fix the path (relative paths start at the config file's folder).`,
    );
  let values: Record<string, string>;
  try {
    values = readDotenvFile(file);
  } catch (error) {
    throw new CoreError('config-invalid', `${where}.envFile: cannot read ${file} (${messageOf(error)})`);
  }
  // The host's own .env (or any file with its key names) never hands an LLM key over.
  assertEnvFileNames(values, `${where}.envFile`, file, context);
  return values;
}
