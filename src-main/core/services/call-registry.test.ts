import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { unwrap, type BridgeMessage, type CallView } from '../../../src-shared/host-api';
import { startHeadless, type HeadlessServer } from '../../headless/server';
import { openBridge, type BridgeClient } from '../../test-support/bridge-client';
import { featuresEntry, hostWith } from '../../test-support/features-fixture';
import { waitFor } from '../../test-support/processes';
import type { Host } from '../host';
import { CallRegistry } from './call-registry';

/*
 * A call belongs to the host, not to the window that started it: a window that connects while it runs (a reload, a
 * second tab) lists it running, then gets its real result. Real host, real fixture child, real bridge.
 */

let host: Host | undefined;
let server: HeadlessServer | undefined;
const tabs: BridgeClient[] = [];
afterEach(async () => {
  for (const tab of tabs.splice(0)) tab.close();
  await server?.dispose();
  await host?.dispose();
  server = undefined;
  host = undefined;
});

const valueOf = (message: BridgeMessage): unknown => {
  if (message.kind !== 'response') throw new Error(`not a response: ${JSON.stringify(message)}`);
  return unwrap(message.envelope);
};

const changes = (tab: BridgeClient): CallView[] =>
  tab.frames.flatMap((f) => (f.message.kind === 'event' && f.message.event === 'calls:changed' ? [f.message.payload as CallView] : []));

describe('calls held by the host (calls:list, calls:changed)', () => {
  it('a tab that connects while a slow call runs sees it running with its progress, then its real result', async () => {
    const made = await hostWith({ features: featuresEntry() });
    host = made.host;
    await host.settled();
    const ui = join(made.dataDir, 'ui');
    mkdirSync(ui);
    writeFileSync(join(ui, 'index.html'), '<!doctype html>');
    server = await startHeadless({ api: host.api, rendererDir: ui });

    // The first tab starts a direct call (as the chat's `/slow {…}` does), then goes away (a reload) while it runs.
    const first = await openBridge(server.url);
    tabs.push(first);
    void first.call('chat:call', [{ server: 'features', tool: 'slow', args: { steps: 6, delayMs: 150 }, callId: 'tab1-1' }]);
    const registry = host.api;
    await waitFor(
      async () => (await registry['calls:list']()).some((c) => c.callId === 'tab1-1' && c.progress?.progress !== undefined),
      10_000,
      'the call running, with progress',
    );
    first.close();

    const second = await openBridge(server.url, { record: true });
    tabs.push(second);
    const listed = valueOf(await second.call('calls:list', [])) as CallView[];
    const running = listed.find((c) => c.callId === 'tab1-1');
    expect(running).toMatchObject({ server: 'features', tool: 'slow', args: { steps: 6, delayMs: 150 }, state: 'running' });
    expect(running?.progress?.total).toBe(6);
    expect(running?.finishedAt).toBeUndefined();

    await waitFor(() => changes(second).some((c) => c.callId === 'tab1-1' && c.state !== 'running'), 10_000, 'the call finished');
    const finished = changes(second).find((c) => c.callId === 'tab1-1' && c.state !== 'running');
    expect(finished?.state).toBe('ok');
    expect(finished?.result?.content).toEqual([{ type: 'text', text: 'slow done: 6 steps' }]);
    expect(finished?.finishedAt).toBeGreaterThanOrEqual(finished?.startedAt ?? Infinity);
    // …and a tab that connects after it finished lists it with its result.
    const later = valueOf(await second.call('calls:list', [])) as CallView[];
    expect(later.find((c) => c.callId === 'tab1-1')).toMatchObject({ state: 'ok', result: { content: [{ type: 'text', text: 'slow done: 6 steps' }] } });
  });

  it('a cancelled call is listed as cancelled; a failed one with its error', async () => {
    const made = await hostWith({ features: featuresEntry() });
    host = made.host;
    await host.settled();
    const api = host.api;
    const call = api['tools:call']({ server: 'features', tool: 'slow', args: { steps: 50, delayMs: 100 }, callId: 'c-cancel' }).catch(() => undefined);
    await waitFor(async () => (await api['calls:list']()).some((c) => c.callId === 'c-cancel'), 5_000, 'the call listed');
    expect(await api['tools:cancel']('c-cancel')).toBe(true);
    await call;
    expect((await api['calls:list']()).find((c) => c.callId === 'c-cancel')).toMatchObject({ state: 'cancelled', failure: { code: 'cancelled' } });
    await api['tools:call']({ server: 'features', tool: 'no-such-tool', args: {}, callId: 'c-fail' }).catch(() => undefined);
    const failed = (await api['calls:list']()).find((c) => c.callId === 'c-fail');
    expect(failed?.state).toBe('error');
    expect(failed?.failure?.message ?? failed?.result?.content[0]).toBeTruthy();
  });
});

describe('CallRegistry retention', () => {
  it('keeps every running call and only the newest finished ones', () => {
    const seen: CallView[] = [];
    const registry = new CallRegistry({ changed: (v) => seen.push(v), maxFinished: 2, now: () => 1 });
    registry.start('long', 's', 't', {});
    for (const id of ['a', 'b', 'c']) {
      registry.start(id, 's', 't', {});
      registry.answered(id, { content: [] });
    }
    expect(registry.list().map((c) => [c.callId, c.state])).toEqual([
      ['long', 'running'],
      ['b', 'ok'],
      ['c', 'ok'],
    ]);
    expect(seen.filter((v) => v.callId === 'a').map((v) => v.state)).toEqual(['running', 'ok']);
  });
});
