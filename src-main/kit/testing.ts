/*
 * `switchboard/testing`: the scripted fake LLM the project's own tests use (real HTTP on 127.0.0.1, the vendors' wire
 * formats, nothing mocked in the app), for QA teams to give the app a model that says and calls what a test decides.
 * Built with the kit (scripts/build-kit.mjs); see docs/testing.md.
 */
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
