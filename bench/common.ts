import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SupervisionPolicy } from '../src-main/core/connection';
import { createHost, type Host } from '../src-main/core/host';
import { nodeRuntime } from '../src-main/core/runtime';
import { StaticSettings } from '../src-main/core/settings';
import { tempDir } from '../src-main/test-support/processes';

/** The trivial echo server every measurement runs against. */
export const echo = join(import.meta.dirname, 'echo-server.mjs');

/** A host on a fresh temp config and data folder. */
export async function hostWith(servers: Record<string, unknown>, policy: Partial<SupervisionPolicy> = {}, dataDir = tempDir('switchboard-bench-')): Promise<Host> {
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(join(dataDir, 'mcp.json'), JSON.stringify({ mcpServers: servers }));
  return createHost({ mode: 'headless', configPath: join(dataDir, 'mcp.json'), dataDir, envDir: dataDir, settings: new StaticSettings(), runtime: nodeRuntime(), policy });
}

/** A process's main thread's CPU time so far in µs (Linux: /proc/PID/schedstat, in ns), or NaN where there is none. */
export function threadCpuUs(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1000;
  } catch {
    return Number.NaN;
  }
}
