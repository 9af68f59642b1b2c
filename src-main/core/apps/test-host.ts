import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHost, type Host } from '../host';
import { nodeRuntime } from '../config/runtime';
import { StaticSettings } from '../settings/store';
import { tempDir } from '../../test-support/processes';
import type { SandboxOrigin } from './service';
import type { AppLimits } from './limits';

/** Test support: a headless host with the apps fixture server (and, asked, more entries), a fake sandbox origin. */
export const appsFixture = join(__dirname, '..', 'fixtures', 'apps-server.mjs');

export const testSandbox: SandboxOrigin = {
  frameUrl: (frameId) => ({ url: `http://127.0.0.1:9/frame/${frameId}?t=test`, origin: 'http://127.0.0.1:9' }),
  parentOrigins: ['http://127.0.0.1:8'],
};

export interface AppsTestHostOptions {
  /** More fields of the `apps` entry. */
  entry?: Record<string, unknown>;
  /** More servers beside `apps`. */
  more?: Record<string, unknown>;
  /** A data folder of the test's own (e.g. to start a second host on it). */
  dataDir?: string;
  /** `null`: a host without a sandbox origin. */
  sandbox?: SandboxOrigin | null;
  limits?: Partial<AppLimits>;
  interactive?: boolean;
}

export async function appsTestHost(options: AppsTestHostOptions = {}): Promise<Host> {
  const dataDir = options.dataDir ?? tempDir();
  const configPath = join(dataDir, 'mcp.json');
  const servers = { apps: { command: process.execPath, args: [appsFixture], ...options.entry }, ...options.more };
  writeFileSync(configPath, JSON.stringify({ mcpServers: servers }));
  const host = await createHost({
    mode: 'headless',
    configPath,
    dataDir,
    envDir: dataDir,
    settings: new StaticSettings(),
    runtime: nodeRuntime(),
    watchConfig: false,
    policy: { graceMs: 300, versionMode: 'legacy' },
    ...(options.sandbox !== null ? { sandboxOrigin: options.sandbox ?? testSandbox } : {}),
    ...(options.limits ? { appLimits: options.limits } : {}),
    ...(options.interactive !== undefined ? { interactive: options.interactive } : {}),
  });
  await host.settled();
  return host;
}
