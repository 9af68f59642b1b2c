/**
 * What one server's stderr line costs every open tab, with 10,000 tools configured: the host sends each change as a
 * per-server delta so that a chatty server does not resend every other server's view to every tab.
 * `after`: the bytes of the `servers:changed` frame a real bridge client receives (median over the changes).
 * `before`: a frame with every server's whole view for the same change (what a full resend would cost), serialized
 * from the same host in the same run. CPU per change: that full serialization vs the per-server diff plus its frame.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import type { BridgeMessage, ServersDelta } from '../src-shared/host-api';
import { ServersDiffer } from '../src-shared/servers-delta';
import { startHeadless } from '../src-main/headless/server';
import { tempDir } from '../src-main/test-support/processes';
import { hostWith } from './common';

export interface FanoutResult {
  /** Bytes one tab receives for one server's stderr line (median). */
  changeEventBytes: number;
  figures: {
    tools: number;
    changes: number;
    changeEventBytes: { before: number; after: number; ratio: number };
    /** Main's CPU per change, ms (median): building the event for the tabs. */
    changeEventCpuMs: { before: number; after: number };
    /** Bytes for all tabs at the cap (8 tabs) per change. */
    eightTabsBytes: { before: number; after: number };
  };
}

const fixtures = join(import.meta.dirname, '..', 'src-main', 'core', 'fixtures');
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

export async function measureBridgeFanout({ quick, log }: { quick: boolean; log: (line: string) => void }): Promise<FanoutResult> {
  const tools = 10_000;
  const changes = quick ? 5 : 20;
  const host = await hostWith({
    big: { command: process.execPath, args: [join(fixtures, 'many-tools-server.mjs'), `--tools=${tools}`] },
    tiny: { command: process.execPath, args: [join(fixtures, 'tiny-server.mjs')] },
  });
  const ui = tempDir('switchboard-bench-fanout-ui-');
  mkdirSync(ui, { recursive: true });
  writeFileSync(join(ui, 'index.html'), '<!doctype html>');
  const server = await startHeadless({ api: host.api, rendererDir: ui });
  try {
    await host.settled();
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/bridge?token=${server.token}`, { headers: { origin: `http://127.0.0.1:${server.port}` } });
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    const events: Array<{ bytes: number; text: string }> = [];
    ws.on('message', (data: Buffer) => {
      const text = data.toString('utf8');
      const message = JSON.parse(text) as BridgeMessage;
      if (message.kind === 'event' && message.event === 'servers:changed') events.push({ bytes: data.length, text });
    });
    const waitForMarker = async (marker: string): Promise<{ bytes: number; text: string }> => {
      for (;;) {
        const hit = events.find((e) => e.text.includes(marker));
        if (hit) return hit;
        await new Promise((r) => setTimeout(r, 5));
      }
    };
    // The first event after start carries each server whole; measure the changes after it.
    await host.api['tools:call']({ server: 'big', tool: 'say', args: { text: 'warm-up' } });
    await waitForMarker('warm-up');

    const after: number[] = [];
    const before: number[] = [];
    for (let i = 0; i < changes; i++) {
      const marker = `bench-line-${i}`;
      await host.api['tools:call']({ server: 'big', tool: 'say', args: { text: marker } });
      after.push((await waitForMarker(marker)).bytes);
      // The old event for this very state: every server's whole view.
      before.push(Buffer.byteLength(JSON.stringify({ kind: 'event', event: 'servers:changed', payload: host.fleet.views() })));
    }
    ws.close();

    // CPU per change, same state: the full serialization vs the diff plus the delta's frame.
    const cpuBefore: number[] = [];
    const cpuAfter: number[] = [];
    const differ = new ServersDiffer();
    differ.next(host.fleet.views());
    for (let i = 0; i < changes; i++) {
      let t = performance.now();
      JSON.stringify({ kind: 'event', event: 'servers:changed', payload: host.fleet.views() });
      cpuBefore.push(performance.now() - t);
      // A real change each round (a stderr line), so the diff has something to send.
      await host.api['tools:call']({ server: 'big', tool: 'say', args: { text: `cpu-${i}` } });
      t = performance.now();
      const delta: ServersDelta | undefined = differ.next(host.fleet.views());
      JSON.stringify({ kind: 'event', event: 'servers:changed', payload: delta });
      cpuAfter.push(performance.now() - t);
    }

    const a = median(after);
    const b = median(before);
    const result: FanoutResult = {
      changeEventBytes: a,
      figures: {
        tools,
        changes,
        changeEventBytes: { before: b, after: a, ratio: Number((a / b).toFixed(5)) },
        changeEventCpuMs: { before: Number(median(cpuBefore).toFixed(3)), after: Number(median(cpuAfter).toFixed(3)) },
        eightTabsBytes: { before: b * 8, after: a * 8 },
      },
    };
    log(
      `fan-out       one stderr line with ${tools} tools: ${b} B → ${a} B per tab (×${result.figures.changeEventBytes.ratio}); main CPU ${result.figures.changeEventCpuMs.before} ms → ${result.figures.changeEventCpuMs.after} ms per change`,
    );
    return result;
  } finally {
    await server.dispose();
    await host.dispose();
  }
}
