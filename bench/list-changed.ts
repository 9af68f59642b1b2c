/**
 * `listChangedRefreshMs`: how long after a server's tool list changes the new list reaches a UI tab. A server
 * (src-main/core/fixtures/list-changed-server.mjs) adds a tool `grown-N` while answering `grow`, sending
 * notifications/tools/list_changed just before the answer; the time is from the answer reaching a bridge client
 * to the `servers:changed` that carries `grown-N` reaching it (the debounce, the tools/list round trip, the delta),
 * in both protocol eras. The median of several rounds per era; the larger era's median is the figure.
 *
 * Standalone: `node --import tsx bench/list-changed.ts [--quick]` prints one JSON line.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import WebSocket from 'ws';
import type { BridgeMessage, ServersDelta } from '../src-shared/host-api';
import { startHeadless } from '../src-main/headless/server';
import { tempDir } from '../src-main/test-support/processes';
import { hostWith } from './common';

export interface ListChangedResult {
  listChangedRefreshMs: number;
  figures: { modernMs: number; legacyMs: number; rounds: number };
}

const fixture = join(import.meta.dirname, '..', 'src-main', 'core', 'fixtures', 'list-changed-server.mjs');
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

async function measureEra(versionMode: 'auto' | 'legacy', rounds: number): Promise<number> {
  const host = await hostWith({ growing: { command: process.execPath, args: [fixture] } }, { versionMode });
  const headless = await startHeadless({ api: host.api, rendererDir: tempDir('switchboard-bench-ui-') });
  const url = new URL(headless.url);
  const ws = new WebSocket(`ws://${url.host}/bridge?token=${headless.token}`, { headers: { origin: url.origin } });
  const replies = new Map<number, () => void>();
  let onDelta: ((delta: ServersDelta) => void) | undefined;
  ws.on('message', (data) => {
    const message = JSON.parse(String(data)) as BridgeMessage;
    if (message.kind === 'response') replies.get(message.id)?.();
    else if (message.event === 'servers:changed') onDelta?.(message.payload as ServersDelta);
  });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const samples: number[] = [];
  try {
    await host.settled();
    for (let i = 1; i <= rounds; i++) {
      const name = `grown-${i}`;
      let answeredAt = 0;
      const listed = new Promise<number>((resolve) => {
        onDelta = (delta) => {
          if (delta.changed.some((p) => p.tools?.some((t) => t.name === name))) resolve(performance.now());
        };
      });
      const answered = new Promise<void>((resolve) => replies.set(i, () => resolve()));
      ws.send(JSON.stringify({ id: i, channel: 'tools:call', args: [{ server: 'growing', tool: 'grow' }] }));
      await answered;
      answeredAt = performance.now();
      samples.push(Math.max(0, (await listed) - answeredAt));
    }
  } finally {
    ws.close();
    await headless.dispose();
    await host.dispose();
  }
  return median(samples);
}

export async function measureListChanged(options: { quick?: boolean } = {}): Promise<ListChangedResult> {
  const rounds = options.quick ? 5 : 15;
  const modernMs = await measureEra('auto', rounds);
  const legacyMs = await measureEra('legacy', rounds);
  return {
    listChangedRefreshMs: Number(Math.max(modernMs, legacyMs).toFixed(1)),
    figures: { modernMs: Number(modernMs.toFixed(1)), legacyMs: Number(legacyMs.toFixed(1)), rounds },
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  measureListChanged({ quick: process.argv.includes('--quick') }).then(
    (result) => {
      process.stdout.write(`${JSON.stringify(result)}\n`);
      process.exit(0);
    },
    (error: unknown) => {
      process.stderr.write(`list-changed failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
