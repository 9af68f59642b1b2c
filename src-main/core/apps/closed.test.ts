import { afterEach, describe, expect, it } from 'vitest';
import type { AppClosedEvent } from '../../../src-shared/host-api';
import type { Host } from '../host';
import { waitFor } from '../../test-support/processes';
import { appsTestHost } from './test-host';

let host: Host | undefined;
afterEach(async () => {
  await host?.dispose();
  host = undefined;
});

const ignore = (): undefined => undefined;

describe('apps:closed', () => {
  it('tells the renderer when the host closes a frame itself (cap, server stopped, flood), never for apps:close', async () => {
    host = await appsTestHost({ limits: { maxFrames: 1, ratePerSecond: 0.001, burst: 1, maxStrikes: 2 } });
    const h = host;
    const seen: AppClosedEvent[] = [];
    h.api.on('apps:closed', (e) => seen.push(e));

    const first = await h.api['apps:open']({ server: 'apps', tool: 'show_clock' });
    const second = await h.api['apps:open']({ server: 'apps', tool: 'show_clock' });
    expect(seen).toEqual([
      { frameId: first.frameId, server: 'apps', tool: 'show_clock', reason: 'too-many-frames', message: expect.stringContaining('oldest') as string },
    ]);

    await h.api['apps:close']({ frameId: second.frameId });
    expect(seen).toHaveLength(1);

    const third = await h.api['apps:open']({ server: 'apps', tool: 'show_clock' });
    await h.api['apps:log']({ frameId: third.frameId, level: 'info', data: 1 });
    await h.api['apps:log']({ frameId: third.frameId, level: 'info', data: 2 }).catch(ignore);
    await h.api['apps:log']({ frameId: third.frameId, level: 'info', data: 3 }).catch(ignore);
    expect(seen.at(-1)).toMatchObject({ frameId: third.frameId, reason: 'app-flood' });

    const fourth = await h.api['apps:open']({ server: 'apps', tool: 'show_clock' });
    await h.api['servers:restart']('apps');
    await waitFor(() => seen.some((e) => e.frameId === fourth.frameId));
    expect(seen.at(-1)).toMatchObject({ frameId: fourth.frameId, reason: 'server-stopped', message: expect.stringContaining('server stopped') as string });
  });
});
