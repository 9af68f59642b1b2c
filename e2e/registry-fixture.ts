import { startFakeRegistry, type FakeRegistry } from '../src-main/test-support/fake-registry';
import { test } from './fixtures';

/** The e2e `test` with a local MCP Registry on loopback (real server.json documents) that the host is pointed at. */
export const registryTest = test.extend<{ registry: FakeRegistry }>({
  // Playwright reads a fixture's dependencies from its first parameter's pattern: this one has none.
  // eslint-disable-next-line no-empty-pattern
  registry: async ({}, use) => {
    const registry = await startFakeRegistry();
    await use(registry);
    await registry.close();
  },
  hostEnv: async ({ registry }, use) => {
    await use({ SWITCHBOARD_REGISTRY: registry.url });
  },
});
