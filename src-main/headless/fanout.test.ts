import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServersDelta, ServerView } from '../../src-shared/host-api';
import { applyServersDelta } from '../../src-shared/servers-delta';
import { createHost, type Host } from '../core/host';
import { nodeRuntime } from '../core/config/runtime';
import { StaticSettings } from '../core/settings/store';
import { openBridge, type BridgeClient } from '../test-support/bridge-client';
import { tempDir, waitFor } from '../test-support/processes';
import { startHeadless, type HeadlessServer } from './server';

/*
 * With 10,000 tools, sending every server's whole view on each change would send ~3 MB to every tab for one stderr
 * line of one server: `servers:changed` carries only what changed, per server. Real host, real child, real bridge.
 */

const manyTools = join(__dirname, '..', 'core', 'fixtures', 'many-tools-server.mjs');
const tiny = join(__dirname, '..', 'core', 'fixtures', 'tiny-server.mjs');

/** A renderer tab on the bridge, recording every frame it receives. */
const openTab = (server: HeadlessServer): Promise<BridgeClient> => openBridge(server.url, { record: true });

const deltas = (frames: BridgeClient['frames']): Array<{ bytes: number; delta: ServersDelta }> =>
  frames.flatMap((f) =>
    f.message.kind === 'event' && f.message.event === 'servers:changed' ? [{ bytes: f.bytes, delta: f.message.payload as ServersDelta }] : [],
  );

describe('servers:changed over the bridge with 10,000 tools', () => {
  let host: Host;
  let server: HeadlessServer;
  beforeAll(async () => {
    const dir = tempDir();
    const config = join(dir, 'mcp.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: { big: { command: process.execPath, args: [manyTools, '--tools=10000'] }, tiny: { command: process.execPath, args: [tiny] } },
      }),
    );
    host = await createHost({ mode: 'headless', configPath: config, dataDir: dir, envDir: dir, settings: new StaticSettings(), runtime: nodeRuntime() });
    // The first event after start carries each server whole (tools included): let it pass before measuring.
    let bigSent = false;
    const off = host.api.on('servers:changed', (delta) => {
      if (delta.changed.some((p) => p.name === 'big' && p.status === 'ready' && p.tools?.length === 10_000)) bigSent = true;
    });
    await host.settled();
    await waitFor(() => bigSent, 10_000, 'the big server sent once, ready with its tools');
    off();
    const ui = join(dir, 'ui');
    mkdirSync(ui);
    writeFileSync(join(ui, 'index.html'), '<!doctype html>');
    server = await startHeadless({ api: host.api, rendererDir: ui });
  });
  afterAll(async () => {
    await server.dispose();
    await host.dispose();
  });

  it('a stderr line of one server sends that server only, without its tools: a few hundred bytes, not megabytes', async () => {
    const tab = await openTab(server);
    const listed = await tab.call('servers:list', []);
    if (listed.kind !== 'response' || !listed.envelope.ok) throw new Error('servers:list failed');
    let list = listed.envelope.value as ServerView[];
    expect(list.find((v) => v.name === 'big')?.tools).toHaveLength(10_000);
    // The list's own reply (an event may arrive after it on a busy machine).
    const listBytes = tab.frames.findLast((f) => f.message.kind === 'response')?.bytes ?? 0;
    // What every tab would get on every change if whole views were sent.
    expect(listBytes).toBeGreaterThan(2_500_000);

    const from = tab.frames.length;
    const said = await tab.call('tools:call', [{ server: 'big', tool: 'say', args: { text: 'marker-1' } }]);
    expect(said).toMatchObject({ envelope: { ok: true } });
    await waitFor(
      () => deltas(tab.frames.slice(from)).some((d) => JSON.stringify(d.delta).includes('marker-1')),
      10_000,
      'the stderr line as a servers:changed event',
    );
    const events = deltas(tab.frames.slice(from));
    const withMarker = events.find((d) => JSON.stringify(d.delta).includes('marker-1'));
    // Everything this tab got for that change (the call's own reply included).
    const total = tab.frames.slice(from).reduce((sum, f) => sum + f.bytes, 0);
    expect(total).toBeLessThan(8_000);
    expect(withMarker?.bytes).toBeLessThan(4_000);
    expect(withMarker?.delta.changed.map((p) => p.name)).toEqual(['big']);
    expect(withMarker?.delta.changed[0]).not.toHaveProperty('tools');
    expect(withMarker?.delta.removed).toEqual([]);

    // Merged into the list the tab holds, the deltas give exactly what servers:list says now.
    for (const { delta } of events) {
      const merged = applyServersDelta(list, delta);
      if (!merged) throw new Error('a delta did not merge');
      list = merged;
    }
    const now = await tab.call('servers:list', []);
    expect(now.kind === 'response' && now.envelope.ok ? now.envelope.value : undefined).toEqual(list);
    expect(list.find((v) => v.name === 'big')?.stderrTail).toContain('marker-1');
    tab.close();
  });

  it("a restart resends that server's tools to every tab, never the big one's; a removed server is named in `removed`", async () => {
    const tabs = [await openTab(server), await openTab(server)];
    await host.api['servers:restart']('tiny');
    await waitFor(
      () => tabs.every((t) => deltas(t.frames).some((d) => d.delta.changed.some((p) => p.name === 'tiny' && p.status === 'ready' && p.tools !== undefined))),
      10_000,
      'tiny ready again, with its tools',
    );
    for (const tab of tabs) {
      // The big server's tools never travel for tiny's restart.
      expect(deltas(tab.frames).every((d) => d.delta.changed.every((p) => p.name !== 'big' || p.tools === undefined))).toBe(true);
    }
    await host.api['servers:remove']('tiny');
    await waitFor(
      () => tabs.every((t) => deltas(t.frames).some((d) => d.delta.removed.includes('tiny') && d.delta.order?.join() === 'big')),
      10_000,
      'tiny removed',
    );
    for (const tab of tabs) tab.close();
  });
});
