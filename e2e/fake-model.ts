import { startFakeModel, type FakeModel, type Script } from '../src-main/kit/testing';
import { test as base } from './fixtures';

/**
 * The page fixture with the QA kit's fake model (`switchboard/testing`'s startFakeModel: an OpenAI-compatible vendor,
 * real HTTP on loopback, scripted SSE with tool calls) as the host's model: `script` is the default, and a spec
 * overrides it per test with `test.use({ model: { script } })` (boxed, since Playwright would take a bare function
 * option for a fixture).
 */
export function withFakeModel(script: Script) {
  return base.extend<{ model: { script: Script }; fake: FakeModel }>({
    model: [{ script }, { option: true }],
    fake: async ({ model }, use) => {
      const fake = await startFakeModel({ script: model.script });
      await use(fake);
      await fake.close();
    },
    hostEnv: async ({ fake }, use) => {
      await use(fake.env);
    },
  });
}
