import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SupervisionPolicy } from '../src-main/core/servers/policy';
import { createHost, type Host } from '../src-main/core/host';
import { nodeRuntime } from '../src-main/core/config/runtime';
import { StaticSettings } from '../src-main/core/settings/store';
import { tempDir } from '../src-main/test-support/processes';

/** The trivial echo server every measurement runs against. */
export const echo = join(import.meta.dirname, 'echo-server.mjs');

/** A host on a fresh temp config and data folder. */
export async function hostWith(
  servers: Record<string, unknown>,
  policy: Partial<SupervisionPolicy> = {},
  dataDir = tempDir('switchboard-bench-'),
): Promise<Host> {
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(join(dataDir, 'mcp.json'), JSON.stringify({ mcpServers: servers }));
  return createHost({
    mode: 'headless',
    configPath: join(dataDir, 'mcp.json'),
    dataDir,
    envDir: dataDir,
    settings: new StaticSettings(),
    runtime: nodeRuntime(),
    policy,
  });
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

/** The value at percentile `p` (0–100) of `values`, or NaN for none. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/** `n` rounded to `digits` decimals, as a number. */
export const round = (n: number, digits = 3): number => Number(n.toFixed(digits));

/** The client capabilities the core's client declares to `host`'s server `echo` (the echo server reports them). */
export async function declaredCapabilities(host: Host): Promise<Record<string, unknown>> {
  const declared = await host.api['tools:call']({ server: 'echo', tool: 'client-capabilities', args: {} });
  return JSON.parse(declared.content[0]?.type === 'text' ? declared.content[0].text : '{}') as Record<string, unknown>;
}

/** The log level the core's client asks of `host`'s server `echo` in each request's `_meta`, or undefined for none. */
export async function declaredLogLevel(host: Host): Promise<string | undefined> {
  const declared = await host.api['tools:call']({ server: 'echo', tool: 'client-log-level', args: {} });
  const level = declared.content[0]?.type === 'text' ? declared.content[0].text : '';
  return level === '' ? undefined : level;
}
