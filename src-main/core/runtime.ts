/**
 * How the host starts the bundled calculator with the runtime it itself runs on, so a desktop user needs no
 * Node install: plain Node passes `process.execPath`; Electron passes `process.execPath` plus
 * `ELECTRON_RUN_AS_NODE=1` in the server's env block.
 */
export interface ChildRuntime {
  command: string;
  env: Record<string, string>;
}

export function nodeRuntime(): ChildRuntime {
  return { command: process.execPath, env: {} };
}
