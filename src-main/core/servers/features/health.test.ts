// Health: servers:ping (legacy `ping`, 2026-07-28 `server/discover`) and the periodic ping of remote servers, whose
// miss (features-server --ping-fail-after N stops answering) marks the server unhealthy and reconnects it.
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerPatch } from '../../../../src-shared/host-api';
import { featuresEntry, hostWith, startFeaturesHttp } from '../../../test-support/features-fixture';
import { waitFor } from '../../../test-support/processes';
import type { Host } from '../../host';

let host: Host | undefined;
const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  await host?.dispose();
  host = undefined;
  for (const stop of stops.splice(0)) await stop();
});

describe.each([
  { era: 'modern', versionMode: 'auto', method: 'server/discover' },
  { era: 'legacy', versionMode: 'legacy', method: 'ping' },
] as const)('servers:ping ($era era, stdio)', ({ versionMode, method }) => {
  it(`sends ${method}, answers how long it took and shows it in the view`, async () => {
    ({ host } = await hostWith({ features: featuresEntry() }, { versionMode }));
    await host.settled();
    const [before] = await host.api['servers:list']();
    expect(before?.health).toBeUndefined();
    const ping = await host.api['servers:ping']('features');
    expect(ping).toEqual({ server: 'features', method, ms: expect.any(Number) });
    const [after] = await host.api['servers:list']();
    expect(after?.health).toEqual({ ok: true, lastPingMs: ping.ms, lastPingAt: expect.any(Number) });
  }, 30_000);
});

describe('health of a remote server', () => {
  it('a missed periodic ping marks it unhealthy and reconnects it (with backoff); a manual ping then answers', async () => {
    const fixture = await startFeaturesHttp(['--ping-fail-after', '2']);
    stops.push(fixture.stop);
    ({ host } = await hostWith({ remote: { url: fixture.url } }, { versionMode: 'legacy', pingIntervalMs: 100, pingTimeoutMs: 400, restartBaseDelayMs: 200 }));
    // Every view of it the UI is sent, in order (a patch is the whole view but its tools).
    const seen: ServerPatch[] = [];
    host.api.on('servers:changed', (delta) => seen.push(...delta.changed.filter((v) => v.name === 'remote')));
    await host.settled();
    const [first] = await host.api['servers:list']();
    expect(first).toMatchObject({ status: 'ready', era: 'legacy', transport: 'http' });

    // Two pings answered, the third not: unhealthy, with the reason, and a reconnect scheduled.
    await waitFor(() => seen.some((v) => v.health?.ok === false), 15_000, 'a view with health.ok false');
    const unhealthy = seen.find((v) => v.health?.ok === false);
    expect(unhealthy?.health?.error).toBe('Server "remote" did not answer ping within 400 ms');
    expect(
      seen.some(
        (v) =>
          v.status === 'error' &&
          v.error === 'Server "remote" did not answer ping within 400 ms (periodic health check); reconnecting' &&
          v.nextRestartAt !== undefined,
      ),
    ).toBe(true);
    // The code and data beside the English, for the UI and the CLI to word in the person's language.
    expect(unhealthy?.health?.errorInfo).toEqual({ code: 'ping-missed', data: { server: 'remote', method: 'ping', timeoutMs: 400 } });
    expect(seen.find((v) => v.status === 'error')?.errorInfo).toEqual({
      code: 'health-lost',
      data: { server: 'remote', how: 'reconnecting' },
      cause: { text: 'Server "remote" did not answer ping within 400 ms', code: 'ping-missed', data: { server: 'remote', method: 'ping', timeoutMs: 400 } },
    });
    // Reconnected: ready again, counted as a restart, healthy (a new session answers its pings again).
    await waitFor(() => seen.some((v) => v.status === 'ready' && v.restarts >= 1), 15_000, 'ready again after the reconnect');
    const ping = await host.api['servers:ping']('remote');
    expect(ping.method).toBe('ping');
    const [now] = await host.api['servers:list']();
    expect(now?.health?.ok).toBe(true);
    expect(now?.stderrTail.join('\n')).toContain('[switchboard] health: Server "remote" did not answer ping within 400 ms');
  }, 40_000);

  it('a remote server that cannot be reached any more is retried with growing delays until it is back', async () => {
    const fixture = await startFeaturesHttp();
    stops.push(fixture.stop);
    ({ host } = await hostWith(
      { remote: { url: fixture.url } },
      { versionMode: 'legacy', pingIntervalMs: 100, pingTimeoutMs: 400, restartBaseDelayMs: 100, restartMaxDelayMs: 400, startTimeoutMs: 2000 },
    ));
    await host.settled();
    // The server goes away: the missed (unsendable) ping starts the reconnects, which fail while it is gone.
    await fixture.stop();
    const restarts: number[] = [];
    host.api.on('servers:changed', (delta) => {
      for (const v of delta.changed) if (v.name === 'remote' && v.status === 'error') restarts.push(v.restarts);
    });
    await waitFor(() => new Set(restarts).size >= 3, 20_000, 'three reconnect attempts');
    const [view] = await host.api['servers:list']();
    expect(view?.status).not.toBe('ready');
    expect(view?.health?.ok).toBe(false);
    // Back on the same port: the next attempt connects.
    const again = await startFeaturesHttp([], Number(new URL(fixture.url).port));
    stops.push(again.stop);
    await waitFor(async () => (await host?.api['servers:list']())?.[0]?.status === 'ready', 20_000, 'ready once the server is back');
    const [back] = await host.api['servers:list']();
    expect(back?.health?.ok).toBe(true);
    expect(back?.restarts).toBeGreaterThanOrEqual(3);
  }, 40_000);
});
