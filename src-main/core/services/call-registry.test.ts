import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { unwrap, type BridgeMessage, type CallView, type ToolResult } from '../../../src-shared/host-api';
import { startHeadless, type HeadlessServer } from '../../headless/server';
import { openBridge, type BridgeClient } from '../../test-support/bridge-client';
import { askingHosts, askingServer } from '../../test-support/asking-host';
import { featuresEntry, hostWith } from '../../test-support/features-fixture';
import { waitFor } from '../../test-support/processes';
import type { Host } from '../host';
import { CallRegistry, MAX_KEPT_RESULT_BYTES } from './call-registry';

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

const asking = askingHosts();

const valueOf = (message: BridgeMessage): unknown => {
  if (message.kind !== 'response') throw new Error(`not a response: ${JSON.stringify(message)}`);
  return unwrap(message.envelope);
};

const changes = (tab: BridgeClient): CallView[] =>
  tab.frames.flatMap((f) => (f.message.kind === 'event' && f.message.event === 'calls:changed' ? [f.message.payload as CallView] : []));

describe('calls held by the host (calls:list, calls:changed)', () => {
  it('a tab that connects while a call runs sees it running, then its real result', async () => {
    // The tool waits on the person (a form), so it is surely still running when the second tab lists it, however
    // loaded the machine; answering the form releases it.
    const made = await asking({ servers: { asking: { command: process.execPath, args: [askingServer] } }, person: () => undefined });
    const ui = join(made.dataDir, 'ui');
    mkdirSync(ui);
    writeFileSync(join(ui, 'index.html'), '<!doctype html>');
    server = await startHeadless({ api: made.host.api, rendererDir: ui });

    // The first tab starts a direct call (as the chat's `/ask-form {}` does), then goes away (a reload) while it runs.
    const first = await openBridge(server.url);
    tabs.push(first);
    void first.call('chat:call', [{ server: 'asking', tool: 'ask-form', args: {}, callId: 'tab1-1' }]);
    await waitFor(() => made.seen.some((r) => r.origin.callId === 'tab1-1'), 10_000, 'the call waiting on the form');
    first.close();

    const second = await openBridge(server.url, { record: true });
    tabs.push(second);
    const listed = valueOf(await second.call('calls:list', [])) as CallView[];
    const running = listed.find((c) => c.callId === 'tab1-1');
    expect(running).toMatchObject({ server: 'asking', tool: 'ask-form', args: {}, state: 'running' });
    expect(running?.finishedAt).toBeUndefined();

    const form = made.seen.find((r) => r.origin.callId === 'tab1-1');
    expect(made.host.requests.answer(form?.id ?? '', { action: 'accept', content: { content: { name: 'Ada' } } })).toBe(true);
    await waitFor(() => changes(second).some((c) => c.callId === 'tab1-1' && c.state !== 'running'), 10_000, 'the call finished');
    const finished = changes(second).find((c) => c.callId === 'tab1-1' && c.state !== 'running');
    expect(finished?.state).toBe('ok');
    expect(finished?.result?.content).toEqual([{ type: 'text', text: expect.stringContaining('form accepted: {"name":"Ada"') }]);
    expect(finished?.finishedAt).toBeGreaterThanOrEqual(finished?.startedAt ?? Infinity);
    // …and a tab that connects after it finished lists it with its result.
    const later = valueOf(await second.call('calls:list', [])) as CallView[];
    expect(later.find((c) => c.callId === 'tab1-1')).toMatchObject({ state: 'ok', result: finished?.result });
  });

  it('a running call is listed with its latest progress', async () => {
    const made = await hostWith({ features: featuresEntry() });
    host = made.host;
    await host.settled();
    const api = host.api;
    // Far too many steps to finish during the test: it runs until cancelled.
    const call = api['tools:call']({ server: 'features', tool: 'slow', args: { steps: 1000, delayMs: 1000 }, callId: 'c-progress' }).catch(() => undefined);
    await waitFor(async () => (await api['calls:list']()).some((c) => c.callId === 'c-progress' && c.progress?.progress !== undefined), 10_000, 'progress');
    expect((await api['calls:list']()).find((c) => c.callId === 'c-progress')).toMatchObject({ state: 'running', progress: { total: 1000 } });
    // A second call under the id of a running one is refused: it would take over the first one's entry.
    await expect(api['tools:call']({ server: 'features', tool: 'slow', args: { steps: 1, delayMs: 1 }, callId: 'c-progress' })).rejects.toThrow(
      /already running/,
    );
    expect(await api['tools:cancel']('c-progress')).toBe(true);
    await call;
    expect((await api['calls:list']()).find((c) => c.callId === 'c-progress')?.state).toBe('cancelled');
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

  it('keeps the newest results within a byte budget; older ones keep their state and say the result is not kept', () => {
    const registry = new CallRegistry({ changed: () => undefined });
    // 30 results of ~300 KB (a base64 image each): far more than the budget together.
    const image = (n: number): ToolResult => ({ content: [{ type: 'image', mimeType: 'image/png', data: String(n % 10).repeat(300_000) }] });
    for (let n = 0; n < 30; n++) {
      registry.start(`img-${n}`, 's', 't', {});
      registry.answered(`img-${n}`, image(n));
    }
    const listed = registry.list();
    expect(listed).toHaveLength(30);
    expect(Buffer.byteLength(JSON.stringify(listed))).toBeLessThan(MAX_KEPT_RESULT_BYTES + 10_000);
    expect(listed.at(-1)).toMatchObject({ callId: 'img-29', state: 'ok', result: image(29) });
    expect(listed.at(-1)?.resultNotKept).toBeUndefined();
    expect(listed[0]).toMatchObject({ callId: 'img-0', state: 'ok', resultNotKept: true });
    expect(listed[0]?.result).toBeUndefined();
    // The newest six fit (6 × ~300 KB ≤ 2 MB).
    expect(listed.filter((c) => c.result !== undefined).map((c) => c.callId)).toEqual(['img-24', 'img-25', 'img-26', 'img-27', 'img-28', 'img-29']);
  });
});
