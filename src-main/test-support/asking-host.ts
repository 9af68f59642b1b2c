import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import type { PendingRequestView, RequestAnswer } from '../../src-shared/contract/requests';
import type { ToolResult } from '../../src-shared/host-api';
import { createHost, type Host } from '../core/host';
import { nodeRuntime } from '../core/config/runtime';
import { StaticSettings, type SettingsStore } from '../core/settings/store';
import { say, startFakeProvider, type FakeProvider } from './fake-providers';
import { everythingEntry, tempDir } from './processes';

/** src-main/core/fixtures/asking-server.mjs (H3's): tools that ask for sampling, a form, a URL and the roots, both eras. */
export const askingServer = join(__dirname, '..', 'core', 'fixtures', 'asking-server.mjs');
export const everything = { command: process.execPath, args: [everythingEntry] };

export const textOf = (result: ToolResult): string => result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');

export interface AskingSetup {
  servers: Record<string, unknown>;
  /** Configure a fake OpenAI-compatible vendor on loopback as the host's provider (default true). */
  provider?: boolean;
  /** Answers each queued request, on the next tick (default: accept with no content). */
  person?: (request: PendingRequestView) => RequestAnswer | undefined;
  interactive?: boolean;
  versionMode?: 'auto' | 'legacy';
  /** Each request's timeout (the policy's `requestTimeoutMs`; default the policy's own). */
  requestTimeoutMs?: number;
  settings?: SettingsStore;
  watchConfig?: boolean;
  /** Runs before the host starts, with its data folder (also the config file's folder). */
  prepare?: (dataDir: string) => void;
}

export interface AskingHost {
  host: Host;
  /** Every request the queue was asked, in order. */
  seen: PendingRequestView[];
  /** The fake vendor (its `requests` count what reached "the model"). */
  fake: FakeProvider;
  configPath: string;
  dataDir: string;
}

/**
 * A headless host (own data dir) over `servers`, with a scripted person answering its request queue and a fake
 * model; settled. Call `askingHosts()` at a file's top level: each test's host and fake are disposed after it.
 */
export function askingHosts(): (setup: AskingSetup) => Promise<AskingHost> {
  let current: AskingHost | undefined;
  afterEach(async () => {
    await current?.host.dispose();
    await current?.fake.close();
    current = undefined;
  });
  return async (setup) => {
    const fake = await startFakeProvider('openai', () => say('A fine answer from the fake model.'));
    const dataDir = tempDir();
    const configPath = join(dataDir, 'mcp.json');
    writeFileSync(configPath, JSON.stringify({ mcpServers: setup.servers }, null, 2));
    setup.prepare?.(dataDir);
    const hostEnv: Record<string, string> =
      setup.provider === false ? {} : { OPENAI_API_KEY: 'sk-test-fake', OPENAI_BASE_URL: fake.baseURL, SWITCHBOARD_MODEL: 'openai:fake-model' };
    let host: Host;
    try {
      host = await createHost({
        mode: 'headless',
        configPath,
        dataDir,
        envDir: dataDir,
        hostEnv,
        settings: setup.settings ?? new StaticSettings(),
        runtime: nodeRuntime(),
        watchConfig: setup.watchConfig ?? false,
        interactive: setup.interactive ?? true,
        policy: {
          graceMs: 300,
          versionMode: setup.versionMode ?? 'legacy',
          ...(setup.requestTimeoutMs !== undefined ? { requestTimeoutMs: setup.requestTimeoutMs } : {}),
        },
      });
    } catch (error) {
      await fake.close();
      throw error;
    }
    const seen: PendingRequestView[] = [];
    const person = setup.person ?? ((): RequestAnswer => ({ action: 'accept' }));
    host.requests.onDidChange((change) => {
      const added = change.added;
      if (!added) return;
      seen.push(added);
      setImmediate(() => {
        const answer = person(added);
        if (answer) host.requests.answer(added.id, answer);
      });
    });
    current = { host, seen, fake, configPath, dataDir };
    await host.settled();
    return current;
  };
}
