import { runScriptPrefix } from '../process/run-script';

/**
 * How the host starts a bundled script (the calculator in a first-run config) with the runtime it itself runs on,
 * so a desktop user needs no Node install: the server entry is `command` with `[...args, script, …]` and `env`.
 * Plain Node: `process.execPath`, no prefix. Electron: the app's own binary with the run-script flag (see
 * run-script.ts), because the packaged app has the RunAsNode fuse off.
 */
export interface ChildRuntime {
  command: string;
  /** Arguments before the script's path. */
  args: string[];
  env: Record<string, string>;
}

export function nodeRuntime(): ChildRuntime {
  return { command: process.execPath, args: [], env: {} };
}

/**
 * The Electron app's runtime. `entryFile` is for an unpackaged app (development, the e2e suite), whose binary is
 * Electron's own and needs the app's entry file as its first argument; a packaged app loads its own entry.
 */
export function electronRuntime(execPath: string, entryFile?: string): ChildRuntime {
  return { command: execPath, args: [...(entryFile !== undefined ? [entryFile] : []), ...runScriptPrefix], env: {} };
}
