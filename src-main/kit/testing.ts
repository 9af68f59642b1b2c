/*
 * `switchboard/testing`: the scripted fake LLM the project's own tests use (real HTTP on 127.0.0.1, the vendors' wire
 * formats, nothing mocked in the app), for QA teams to give the app a model that says and calls what a test decides.
 * Built with the kit (scripts/build-kit.mjs); see docs/testing.md.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeProvider, type FakeProvider, type Script, type SeenRequest, type Vendor } from '../test-support/fake-providers';

export { calculatorModel, callTool, say, sequence, startFakeProvider } from '../test-support/fake-providers';
export type { FakeProvider, Reply, Script, ScriptEvent, SeenRequest, Vendor } from '../test-support/fake-providers';

export interface FakeModelOptions {
  /** The wire format: OpenAI Chat Completions (default) or Anthropic Messages. */
  vendor?: Vendor;
  /** What the model answers, per request (default: say "You said: …"). */
  script?: Script;
}

export interface FakeModel extends FakeProvider {
  /** The model as the app names it: `openai:fake-model` or `anthropic:fake-model`. */
  model: string;
  /** The app's environment that makes this fake its model: pass it as the kit's `env` option. */
  env: Record<string, string>;
}

/** Starts a fake model on a free loopback port; `close()` it when done (the kit's fixtures do not). */
export async function startFakeModel(options: FakeModelOptions = {}): Promise<FakeModel> {
  const vendor = options.vendor ?? 'openai';
  const fake = await startFakeProvider(
    vendor,
    options.script ?? ((request: SeenRequest) => ({ kind: 'stream', events: [{ text: `You said: ${request.lastUserText}` }] })),
  );
  const model = `${vendor}:fake-model`;
  const env: Record<string, string> =
    vendor === 'openai'
      ? { OPENAI_BASE_URL: fake.baseURL, OPENAI_API_KEY: 'sk-fake-not-a-real-key', SWITCHBOARD_MODEL: model }
      : { ANTHROPIC_BASE_URL: fake.baseURL, ANTHROPIC_API_KEY: 'sk-ant-fake-not-a-real-key', SWITCHBOARD_MODEL: model };
  return Object.assign(fake, { model, env });
}

/** The test servers shipped with the kit (docs/testing.md#test-servers): small MCP servers over stdio, for QA. */
export type TestServerName = 'crashing' | 'slow' | 'asking' | 'many-tools' | 'list-changed' | 'progress';

/** Their flags, as `--name=value` on the command line: `true` gives `--name` alone, `false` and undefined leave it out. */
export type TestServerFlags = Record<string, string | number | boolean | undefined>;

/** A stdio entry of `mcpServers`, ready for the kit's `servers` option or `setServers`. */
export interface TestServerEntry {
  command: string;
  args: string[];
}

/** Each test server's source in this repository, from this folder: the build bundles them to `test-servers/NAME.mjs`. */
const testServerSources: Record<TestServerName, string> = {
  crashing: './test-servers/crashing.mjs',
  slow: '../core/fixtures/slow-server.mjs',
  asking: '../core/fixtures/asking-server.mjs',
  'many-tools': '../core/fixtures/many-tools-server.mjs',
  'list-changed': '../core/fixtures/list-changed-server.mjs',
  progress: '../core/fixtures/features-server.mjs',
};

export const testServerNames: readonly TestServerName[] = ['crashing', 'slow', 'asking', 'many-tools', 'list-changed', 'progress'];

/**
 * The absolute path of a test server's script, for `node PATH`: the bundled one beside this module in the package
 * (out/kit/test-servers/), or its source when this module runs from a checkout's source (the project's own tests).
 */
export function testServerPath(name: TestServerName): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const built = join(here, 'test-servers', `${name}.mjs`);
  return existsSync(built) ? built : resolve(here, testServerSources[name]);
}

/** An `mcpServers` entry that runs the test server `name` with `flags`, e.g. `testServer('many-tools', { tools: 300 })`. */
export function testServer(name: TestServerName, flags: TestServerFlags = {}): TestServerEntry {
  const args = [testServerPath(name)];
  for (const [flag, value] of Object.entries(flags)) {
    if (value === undefined || value === false) continue;
    args.push(value === true ? `--${flag}` : `--${flag}=${String(value)}`);
  }
  return { command: process.execPath, args };
}

/** Every test server with its defaults: `testServers.crashing` is `{ command: node, args: [its path] }`. */
export const testServers: Record<TestServerName, TestServerEntry> = {
  crashing: testServer('crashing'),
  slow: testServer('slow'),
  asking: testServer('asking'),
  'many-tools': testServer('many-tools'),
  'list-changed': testServer('list-changed'),
  progress: testServer('progress'),
};
