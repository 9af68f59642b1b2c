import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServersDelta } from '../../../src-shared/host-api';
import { createHost, type Host } from '../host';
import type { SupervisionPolicy } from '../servers/policy';
import { nodeRuntime } from '../config/runtime';
import { StaticSettings } from '../settings/store';
import { tempDir, waitFor } from '../../test-support/processes';

const fixture = join(__dirname, '..', 'fixtures', 'list-changed-server.mjs');

async function hostWith(policy: Partial<SupervisionPolicy>): Promise<Host> {
  const dataDir = tempDir();
  const config = join(dataDir, 'mcp.json');
  writeFileSync(config, JSON.stringify({ mcpServers: { growing: { command: process.execPath, args: [fixture] } } }));
  return createHost({
    mode: 'headless',
    configPath: config,
    dataDir,
    envDir: dataDir,
    settings: new StaticSettings(),
    runtime: nodeRuntime(),
    policy: { graceMs: 300, ...policy },
  });
}

describe.each([
  { era: 'modern', versionMode: 'auto' },
  { era: 'legacy', versionMode: 'legacy' },
] as const)('tools/list_changed ($era era)', ({ era, versionMode }) => {
  let host: Host | undefined;
  afterEach(async () => {
    await host?.dispose();
    host = undefined;
  });

  it('a tool the server adds is known at once (new: callable once trusted) and reaches the UI without a restart', async () => {
    host = await hostWith({ versionMode });
    const deltas: ServersDelta[] = [];
    host.api.on('servers:changed', (delta) => deltas.push(delta));
    await host.settled();
    const [before] = await host.api['servers:list']();
    expect(before, before?.error).toMatchObject({ status: 'ready', era, capabilities: { tools: true } });
    expect(before?.tools.map((t) => t.name)).toEqual(['grow']);
    const pid = before?.pid;

    const grown = await host.api['tools:call']({ server: 'growing', tool: 'grow' });
    expect(grown.content).toEqual([{ type: 'text', text: 'grown-1' }]);
    // Known right away (no "unknown tool", no restart), as new: it appeared after the first listing pinned the
    // server's tools, so it needs review before it runs.
    await expect(host.api['tools:call']({ server: 'growing', tool: 'grown-1', args: { text: 'hi' } })).rejects.toMatchObject({
      code: 'needs-review',
      data: { state: 'new' },
    });
    await host.api['tools:trust']({ server: 'growing', tools: ['grown-1'] });
    expect(await host.api['tools:call']({ server: 'growing', tool: 'grown-1', args: { text: 'hi' } })).toMatchObject({
      content: [{ type: 'text', text: 'grown-1:hi' }],
    });
    const [after] = await host.api['servers:list']();
    expect(after?.tools.map((t) => t.name)).toEqual(['grow', 'grown-1']);
    expect(after?.pid).toBe(pid);
    expect(after?.restarts).toBe(0);
    // The UI hears of it through servers:changed, with the new list.
    await waitFor(() => deltas.some((d) => d.changed.some((p) => p.tools?.some((t) => t.name === 'grown-1'))), 5000, 'a servers:changed with grown-1');

    // A second growth: the list follows again.
    await host.api['tools:call']({ server: 'growing', tool: 'grow' });
    await waitFor(async () => (await host?.api['servers:list']())?.[0]?.tools.some((t) => t.name === 'grown-2') === true, 5000, 'grown-2 listed');
    await host.api['tools:trust']({ server: 'growing' });
    expect(await host.api['tools:call']({ server: 'growing', tool: 'grown-2', args: { text: 'x' } })).toMatchObject({
      content: [{ type: 'text', text: 'grown-2:x' }],
    });
  }, 20_000);
});

describe('policy listen (2026-07-28)', () => {
  let host: Host | undefined;
  afterEach(async () => {
    await host?.dispose();
    host = undefined;
  });

  const listens = async (h: Host): Promise<number> =>
    (await h.api['trace:list']({ server: 'growing' })).filter(
      (e) => e.direction === 'send' && (e.message as { method?: string }).method === 'subscriptions/listen',
    ).length;

  it("'await' (default) opens the subscriptions/listen stream as part of the connect; 'skip' (one-shot CLI commands) never does, and tools still list and run", async () => {
    host = await hostWith({});
    await host.settled();
    expect(await listens(host)).toBe(1);
    await host.dispose();

    host = await hostWith({ listen: 'skip' });
    await host.settled();
    const [view] = await host.api['servers:list']();
    expect(view, view?.error).toMatchObject({ status: 'ready', era: 'modern' });
    expect(view?.tools.map((t) => t.name)).toEqual(['grow']);
    expect(await host.api['tools:call']({ server: 'growing', tool: 'grow' })).toMatchObject({ content: [{ type: 'text', text: 'grown-1' }] });
    expect(await listens(host)).toBe(0);
  }, 20_000);
});
