import { afterEach, describe, expect, it } from 'vitest';
import type { HostError } from '../../../src-shared/errors';
import { toHostError } from '../errors';
import type { Host } from '../host';
import { appsTestHost } from './test-host';

let host: Host | undefined;
afterEach(async () => {
  await host?.dispose();
  host = undefined;
});

const failureOf = (promise: Promise<unknown>): Promise<HostError | undefined> =>
  promise.then(
    () => undefined,
    (error: unknown) => toHostError(error),
  );

const params = { messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }], maxTokens: 20 };

describe('apps:sample (sampling/createMessage from an app)', () => {
  it("runs under its server's sampling policy: 'never' declines, audited as the app's", async () => {
    host = await appsTestHost({ entry: { sampling: { mode: 'never' } } });
    const frame = await host.api['apps:open']({ server: 'apps', tool: 'show_clock' });
    const refused = await failureOf(host.api['apps:sample']({ frameId: frame.frameId, params }));
    expect(refused).toMatchObject({ code: 'request-failed', data: { reason: 'sampling-refused', server: 'apps', tool: 'show_clock' } });
    expect(refused?.message).toContain('sampling is turned off for "apps"');
    const audit = await host.api['audit:list']({});
    expect(audit.find((e) => e.kind === 'sampling')).toMatchObject({
      source: 'mcp-app',
      server: 'apps',
      tool: 'show_clock',
      sampling: { decision: 'auto-declined' },
    });
  });

  it('with sampling allowed but no model provider: declined, saying so; no one is asked', async () => {
    host = await appsTestHost();
    const h = host;
    const frame = await h.api['apps:open']({ server: 'apps', tool: 'show_clock' });
    const refused = await failureOf(h.api['apps:sample']({ frameId: frame.frameId, params }));
    expect(refused).toMatchObject({ data: { reason: 'sampling-refused' } });
    expect(await h.api['requests:list']()).toEqual([]);
  });

  it('refuses what is not a sampling/createMessage, and a closed frame', async () => {
    host = await appsTestHost();
    const frame = await host.api['apps:open']({ server: 'apps', tool: 'show_clock' });
    const bad = await failureOf(host.api['apps:sample']({ frameId: frame.frameId, params: { messages: 'hi' } }));
    expect(bad).toMatchObject({ code: 'invalid-argument', data: { reason: 'app-bad-request' } });
    await host.api['apps:close']({ frameId: frame.frameId });
    expect(await failureOf(host.api['apps:sample']({ frameId: frame.frameId, params }))).toMatchObject({ data: { reason: 'closed' } });
  });
});
