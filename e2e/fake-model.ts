import { startFakeProvider, type FakeProvider, type Script } from '../src-main/test-support/fake-providers';
import { test as base } from './fixtures';

/**
 * The page fixture with a fake OpenAI-compatible vendor (real HTTP on loopback, scripted SSE with tool calls) as the
 * host's model: `script` is the default, and a spec overrides it per test with `test.use({ model: { script } })`
 * (boxed, since Playwright would take a bare function option for a fixture).
 */
export function withFakeModel(script: Script) {
  return base.extend<{ model: { script: Script }; fake: FakeProvider }>({
    model: [{ script }, { option: true }],
    fake: async ({ model }, use) => {
      const fake = await startFakeProvider('openai', model.script);
      await use(fake);
      await fake.close();
    },
    hostEnv: async ({ fake }, use) => {
      await use({ OPENAI_BASE_URL: fake.baseURL, OPENAI_API_KEY: 'sk-e2e-not-a-real-key', SWITCHBOARD_MODEL: 'openai:fake-model' });
    },
  });
}
