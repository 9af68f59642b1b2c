import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { createHost, type Host, type HostOptions } from '../core/host';
import type { SupervisionPolicy } from '../core/servers/policy';
import { nodeRuntime } from '../core/config/runtime';
import { StaticSettings } from '../core/settings/store';
import { stopChild, tempDir } from './processes';

/** src-main/core/fixtures/features-server.mjs: every issue-9 server feature, both eras (see its header). */
export const featuresServer = join(__dirname, '..', 'core', 'fixtures', 'features-server.mjs');

/** A stdio config entry for the fixture. */
export function featuresEntry(args: string[] = [], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { command: process.execPath, args: [featuresServer, ...args], ...extra };
}

/** Writes `home`/mcp.json for the CLI tests: the fixture in both eras (`modern`, `legacy`) and a `broken` entry. */
export function writeFeaturesCliConfig(home: string): string {
  const config = join(home, 'mcp.json');
  const mcpServers = { modern: featuresEntry(), legacy: featuresEntry(['--legacy-only']), broken: { command: 'no-such-command-for-switchboard' } };
  writeFileSync(config, JSON.stringify({ mcpServers }));
  return config;
}

/** A host (headless, own data dir) over these servers; dispose it in afterEach. */
export async function hostWith(servers: Record<string, unknown>, policy: Partial<SupervisionPolicy> = {}): Promise<{ host: Host; dataDir: string }> {
  const dataDir = tempDir();
  const configPath = join(dataDir, 'mcp.json');
  writeFileSync(configPath, JSON.stringify({ mcpServers: servers }));
  const host = await createHost({
    mode: 'headless',
    configPath,
    dataDir,
    envDir: dataDir,
    settings: new StaticSettings(),
    runtime: nodeRuntime(),
    watchConfig: false,
    policy: { graceMs: 300, ...policy },
  });
  return { host, dataDir };
}

/** The two protocol eras as the host is told to use them: `legacy` pins 2025-11-25, `auto` reaches 2026-07-28. */
export const FEATURE_ERAS = [
  { era: 'legacy', versionMode: 'legacy' },
  { era: 'modern', versionMode: 'auto' },
] as const;

export interface HostPerTest {
  /**
   * A host (headless, own data dir, watching its config) over these servers, settled; the one disposed after the test.
   * `options`: the host's other options (its secret store, no watching, …).
   */
  hostWith(servers: Record<string, unknown>, policy?: Partial<SupervisionPolicy>, options?: Partial<HostOptions>): Promise<Host>;
  /** Disposes the last host made (idempotent); already registered with afterEach. */
  disposeHost(): Promise<void>;
}

/** Call at a test file's top level: each test's host (the last `hostWith` made) is disposed after it. */
export function hostPerTest(): HostPerTest {
  let host: Host | undefined;
  const disposeHost = async (): Promise<void> => {
    await host?.dispose();
    host = undefined;
  };
  afterEach(disposeHost);
  return {
    disposeHost,
    async hostWith(servers, policy = {}, options = {}) {
      const dataDir = tempDir();
      const configPath = join(dataDir, 'mcp.json');
      writeFileSync(configPath, JSON.stringify({ mcpServers: servers }));
      const created = await createHost({
        mode: 'headless',
        configPath,
        dataDir,
        envDir: dataDir,
        settings: new StaticSettings(),
        runtime: nodeRuntime(),
        policy: { graceMs: 300, ...policy },
        ...options,
      });
      host = created;
      await created.settled();
      return created;
    },
  };
}

/** The fixture over Streamable HTTP on a loopback port (default: a free one); `stop()` ends it (idempotent). */
export async function startFeaturesHttp(args: string[] = [], port = 0): Promise<{ url: string; child: ChildProcess; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [featuresServer, '--http', String(port), ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  const url = await new Promise<string>((resolve, reject) => {
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      const match = /listening on (\S+)/.exec(stderr);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`features-server exited with ${code}: ${stderr}`)));
  });
  return { url, child, stop: stopChild(child) };
}
