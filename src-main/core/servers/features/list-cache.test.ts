// List results' cache hints (2026-07-28 `ttlMs` / `cacheScope`) and the order of tools/list: cache-hints-server.mjs
// (a real child) counts its list requests. Within the ttl no use fetches a list again; after it the next use does; a
// list_changed refreshes at once; a ttl of 0 and a 2025-11-25 connection keep the list until list_changed. The tools
// keep the server's (non-alphabetical) order in the host's lists, a chat turn's offer and the CLI's `tools --json`.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Host } from '../../host';
import { disposeHarnesses, harness } from '../../../test-support/chat-harness';
import { say, sequence } from '../../../test-support/fake-providers';
import { hostPerTest } from '../../../test-support/features-fixture';
import { tempDir, waitFor } from '../../../test-support/processes';

const fixture = join(__dirname, '..', '..', 'fixtures', 'cache-hints-server.mjs');
const entry = (ttlMs: number, scope = 'private'): Record<string, unknown> => ({
  command: process.execPath,
  args: [fixture, '--ttl-ms', String(ttlMs), '--cache-scope', scope],
});
const serverOrder = ['zeta-search', 'alpha-fetch', 'mike-echo', 'counts', 'grow'];

const { hostWith } = hostPerTest();
afterEach(disposeHarnesses);

/** The list requests the server got so far (the `counts` call is itself a use of the tools list). */
async function counts(h: Host): Promise<Record<string, number>> {
  const result = await h.api['tools:call']({ server: 'cache', tool: 'counts', args: {} });
  const first = result.content[0];
  return JSON.parse(first?.type === 'text' ? first.text : '{}') as Record<string, number>;
}

const toolNames = async (h: Host): Promise<string[]> => (await h.api['servers:list']())[0]?.tools.map((t) => t.name) ?? [];
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('list results: ttlMs and cacheScope (2026-07-28)', () => {
  it('no list is fetched again within its ttl; after it the next use fetches it; list_changed refreshes at once', async () => {
    const h = await hostWith({ cache: entry(1500) }, { versionMode: 'auto' });
    expect((await h.api['servers:list']())[0]?.status).toBe('ready');
    expect(await counts(h)).toEqual({ 'tools/list': 1, 'prompts/list': 1, 'resources/list': 1 });
    // Uses within the ttl: calls, listings through the API.
    await h.api['tools:call']({ server: 'cache', tool: 'zeta-search', args: {} });
    await h.api['prompts:list']('cache');
    await h.api['resources:list']('cache');
    expect(await counts(h)).toEqual({ 'tools/list': 1, 'prompts/list': 1, 'resources/list': 1 });
    await sleep(1600);
    // Past the ttl: the call (a use) lists the tools again first; prompts and resources on their next use.
    expect((await counts(h))['tools/list']).toBe(2);
    await h.api['prompts:list']('cache');
    await h.api['resources:list']('cache');
    expect(await counts(h)).toEqual({ 'tools/list': 2, 'prompts/list': 2, 'resources/list': 2 });
    // list_changed inside the ttl: listed again at once.
    await h.api['tools:call']({ server: 'cache', tool: 'grow', args: {} });
    await waitFor(async () => (await toolNames(h)).includes('grown-1'), 10_000, 'grown-1 to be listed');
    expect((await counts(h))['tools/list']).toBe(3);
    expect(await toolNames(h)).toEqual([...serverOrder, 'grown-1']);
  }, 30_000);

  it('a ttl of 0 keeps the list until list_changed; so does every 2025-11-25 connection, whatever it sends', async () => {
    const zero = await hostWith({ cache: entry(0) }, { versionMode: 'auto' });
    await sleep(100);
    await zero.api['tools:call']({ server: 'cache', tool: 'alpha-fetch', args: {} });
    expect((await counts(zero))['tools/list']).toBe(1);

    const legacy = await hostWith({ cache: entry(200) }, { versionMode: 'legacy' });
    await sleep(300);
    expect((await counts(legacy))['tools/list']).toBe(1);
  }, 30_000);

  it('a chat turn is a use: past the ttl the tools are listed again before they are offered', async () => {
    const h = await harness('openai', sequence(say('one'), say('two')), { servers: { cache: entry(800, 'public') } });
    await h.send('first');
    expect(h.fake.requests[0]?.toolNames).toEqual(serverOrder.map((name) => `cache__${name}`));
    await sleep(900);
    await h.send('second');
    const trace = await h.host.api['trace:list']({ server: 'cache' });
    const listed = trace.filter((e) => e.direction === 'send' && (e.message as { method?: string }).method === 'tools/list');
    expect(listed).toHaveLength(2);
  }, 30_000);
});

describe('tools/list order', () => {
  it("the host's lists and the CLI's tools --json keep the server's order", async () => {
    const h = await hostWith({ cache: entry(0) });
    expect(await toolNames(h)).toEqual(serverOrder);
    const home = tempDir();
    const config = join(home, 'mcp.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { cache: entry(0) } }));
    const r = spawnSync(process.execPath, ['--import', 'tsx', join(__dirname, '..', '..', '..', 'cli', 'main.ts'), '--config', config, '--json', 'tools'], {
      env: { PATH: process.env.PATH ?? '', HOME: home, SWITCHBOARD_LANG: 'en' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as Array<{ name: string }>).map((t) => t.name)).toEqual(serverOrder);
  }, 60_000);
});
