import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ApprovalDecision, ChatEvent, ToolPart } from '../../src-shared/contract/chat';
import { createHost, type Host } from '../core/host';
import { calculatorPath } from '../core/support/paths';
import { nodeRuntime } from '../core/config/runtime';
import { MemorySecretStore, type SecretStore } from '../core/secrets/store';
import { StaticSettings } from '../core/settings/store';
import { startFakeProvider, type FakeProvider, type Script, type Vendor } from './fake-providers';
import { tempDir, waitFor } from './processes';

/*
 * A headless host whose chat talks to a fake vendor (real loopback HTTP) and whose tools are real MCP servers
 * (the bundled calculator by default), with every chat event recorded and approvals answered from a list.
 * Call `disposeHarnesses` in an afterEach.
 */

export const testKey = 'sk-test-secret-value-1234567890';

export type RunFinished = Extract<ChatEvent, { type: 'run-finished' }>;

export interface Harness {
  host: Host;
  dir: string;
  fake: FakeProvider;
  secrets: SecretStore;
  events: ChatEvent[];
  /** Answers every approval request with the next decision of the list (the last one repeats). */
  decide(...decisions: ApprovalDecision[]): void;
  send(text: string, conversationId?: string): Promise<{ conversationId: string; runId: string; finished: RunFinished }>;
  text(runId: string): string;
  tools(runId: string): ToolPart[];
  approvalsAsked: ToolPart[];
}

export interface HarnessOptions {
  dir?: string;
  fake?: FakeProvider;
  servers?: Record<string, unknown>;
  /** The host's environment; by default the vendor's base URL, key and a `SWITCHBOARD_MODEL` (see vendorEnv). */
  hostEnv?: (fake: FakeProvider) => Record<string, string | undefined>;
  secrets?: SecretStore;
  /** The working folder whose `.env` the host reads besides the data folder's (default: the data folder). */
  envDir?: string;
  /** Answer approvals from the `decide` list (default true); false leaves them waiting in `host.requests`. */
  answerApprovals?: boolean;
  /** The host's `interactive` / `noAnswererReason` (default: interactive). */
  interactive?: boolean;
  noAnswererReason?: string;
}

/** The host environment that points the vendor's provider at the fake, with `testKey` as its key. */
export function vendorEnv(vendor: Vendor, fake: FakeProvider): Record<string, string | undefined> {
  return vendor === 'openai'
    ? { OPENAI_BASE_URL: fake.baseURL, OPENAI_API_KEY: testKey, SWITCHBOARD_MODEL: 'openai:fake-model', PATH: process.env.PATH }
    : { ANTHROPIC_BASE_URL: fake.baseURL, ANTHROPIC_API_KEY: testKey, SWITCHBOARD_MODEL: 'anthropic:fake-model', PATH: process.env.PATH };
}

const live: Harness[] = [];

/** Disposes every harness still open (and closes its fake vendor). */
export async function disposeHarnesses(): Promise<void> {
  for (const h of live.splice(0)) {
    await h.host.dispose();
    await h.fake.close();
  }
}

/** Takes a harness out of `disposeHarnesses`' care (a test that disposed its host itself and reuses the fake). */
export function forgetHarness(h: Harness): void {
  const at = live.indexOf(h);
  if (at >= 0) live.splice(at, 1);
}

export async function harness(vendor: Vendor, script: Script, options: HarnessOptions = {}): Promise<Harness> {
  const fake = options.fake ?? (await startFakeProvider(vendor, script));
  const dir = options.dir ?? tempDir('switchboard-chat-');
  const config = join(dir, 'mcp.json');
  writeFileSync(config, JSON.stringify({ mcpServers: options.servers ?? { calculator: { command: process.execPath, args: [calculatorPath()] } } }));
  const hostEnv = options.hostEnv ? options.hostEnv(fake) : vendorEnv(vendor, fake);
  const secrets = options.secrets ?? new MemorySecretStore();
  const host = await createHost({
    mode: 'headless',
    configPath: config,
    dataDir: dir,
    envDir: options.envDir ?? dir,
    settings: new StaticSettings(),
    runtime: nodeRuntime(),
    hostEnv,
    secrets,
    ...(options.interactive !== undefined ? { interactive: options.interactive } : {}),
    ...(options.noAnswererReason !== undefined ? { noAnswererReason: options.noAnswererReason } : {}),
  });
  await host.settled();
  const events: ChatEvent[] = [];
  let decisions: ApprovalDecision[] = ['once'];
  let asked = 0;
  const h: Harness = {
    host,
    dir,
    fake,
    secrets,
    events,
    approvalsAsked: [],
    decide: (...d) => {
      decisions = d;
    },
    async send(text, conversationId) {
      const started = await host.api['chat:send']({ text, ...(conversationId ? { conversationId } : {}) });
      let finished: RunFinished | undefined;
      await waitFor(
        () => {
          finished = events.find((e): e is RunFinished => e.type === 'run-finished' && e.runId === started.runId);
          return finished !== undefined;
        },
        30_000,
        'the turn to finish',
      );
      return { conversationId: started.conversationId, runId: started.runId, finished: finished as RunFinished };
    },
    text: (runId) =>
      events
        .filter((e): e is Extract<ChatEvent, { type: 'text' }> => e.type === 'text' && e.runId === runId)
        .map((e) => e.text)
        .join(''),
    tools: (runId) => {
      const byId = new Map<string, ToolPart>();
      for (const e of events) if (e.type === 'tool' && e.runId === runId) byId.set(e.part.callId, e.part);
      return [...byId.values()];
    },
  };
  host.api.on('chat:event', (event) => {
    events.push(event);
    if (event.type === 'tool' && event.part.status === 'awaiting-approval') {
      h.approvalsAsked.push(event.part);
      if (options.answerApprovals === false) return;
      const decision = decisions[Math.min(asked++, decisions.length - 1)] ?? 'once';
      void host.api['chat:approve'](event.part.callId, decision);
    }
  });
  live.push(h);
  return h;
}
