import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { getHeapStatistics } from 'node:v8';
import { afterEach, describe, expect, it } from 'vitest';
import type { SupervisionPolicy } from '../servers/policy';
import { createHost, type Host } from '../host';
import { StaticSettings } from '../settings/store';
import { nodeRuntime } from '../config/runtime';
import { pidsWith, tempDir } from '../../test-support/processes';

const edge = join(__dirname, '..', 'fixtures', 'edge-server.mjs');

async function hostWith(servers: Record<string, unknown>, policy: Partial<SupervisionPolicy> = {}, dataDir = tempDir()): Promise<Host> {
  const config = join(dataDir, 'mcp.json');
  writeFileSync(config, JSON.stringify({ mcpServers: servers }));
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

const viewsOf = async (host: Host) => Object.fromEntries((await host.api['servers:list']()).map((v) => [v.name, v]));
const text = (result: { content: unknown[] }): string => JSON.stringify(result.content);

describe('connecting slow stdio servers', () => {
  let host: Host | undefined;
  afterEach(async () => {
    await host?.dispose();
    host = undefined;
  });

  it('a server that says nothing for 6.5 s still connects; one slower than its "timeout" fails saying to raise it', async () => {
    const tag = `--tag=${tempDir()}`;
    host = await hostWith(
      {
        slow: { command: process.execPath, args: [edge, '--delay=6500', tag] },
        stuck: { command: process.execPath, args: [edge, '--delay=60000', tag], timeout: 6000 },
      },
      { startTimeoutMs: 20_000 },
    );
    await host.settled();
    const views = await viewsOf(host);
    expect(views.slow, views.slow?.error).toMatchObject({ status: 'ready', era: 'legacy' });
    expect(views.slow?.stderrTail).toContain('method: server/discover');
    expect(await host.api['tools:call']({ server: 'slow', tool: 'echo', args: { text: 'late' } })).toMatchObject({
      content: [{ type: 'text', text: 'edge:late' }],
    });
    expect(views.stuck?.status).toBe('error');
    expect(views.stuck?.error).toBe(
      'Server "stuck" did not finish connecting within 6000 ms. If it is only slow to start (a first npx or uvx download, a JVM, a busy machine), raise "timeout" (in ms) in its config entry.',
    );
    // The one that timed out was ended, tree and all.
    expect(pidsWith(tag)).toHaveLength(1);
  }, 20_000);
});

describe('a legacy server that exits on the server/discover probe', () => {
  it('is started again with the legacy handshake, reaches ready, and the verdict is cached', async () => {
    const dataDir = tempDir();
    const host = await hostWith({ strict: { command: process.execPath, args: [edge, '--exit-on-discover', '--name=strict'] } }, {}, dataDir);
    try {
      await host.settled();
      const view = (await viewsOf(host)).strict;
      expect(view, view?.error).toMatchObject({ status: 'ready', era: 'legacy' });
      expect(view?.stderrTail.filter((l) => l.includes('unexpected request before initialize'))).toHaveLength(1);
      expect(view?.stderrTail.some((l) => l.includes('exited while the server/discover probe was unanswered'))).toBe(true);
      expect(await host.api['tools:call']({ server: 'strict', tool: 'echo', args: { text: 'hi' } })).toMatchObject({
        content: [{ type: 'text', text: 'strict:hi' }],
      });
      const cache = JSON.parse(readFileSync(join(dataDir, 'era-cache.json'), 'utf8')) as Record<string, unknown>;
      expect(Object.values(cache)).toEqual([{ kind: 'legacy' }]);
      // A restart uses the verdict: no probe, so the server does not exit again.
      await host.api['servers:restart']('strict');
      const again = (await viewsOf(host)).strict;
      expect(again?.status).toBe('ready');
      expect(again?.stderrTail.filter((l) => l.includes('unexpected request before initialize'))).toHaveLength(1);
    } finally {
      await host.dispose();
    }
  });
});

describe('stdout lines past the per-message limit', () => {
  let host: Host | undefined;
  afterEach(async () => {
    await host?.dispose();
    host = undefined;
  });

  it('a 50 MB non-JSON line is dropped as it streams (memory stays bounded), the error names the server, and the server works', async () => {
    const baseline = getHeapStatistics().used_heap_size;
    let peak = 0;
    const sampler = setInterval(() => {
      peak = Math.max(peak, getHeapStatistics().used_heap_size - baseline);
    }, 10);
    try {
      host = await hostWith({ big: { command: process.execPath, args: [edge, '--big-line-mb=50', '--name=big'] } }, { startTimeoutMs: 60_000 });
      await host.settled();
    } finally {
      clearInterval(sampler);
    }
    const view = (await viewsOf(host)).big;
    expect(view, view?.error).toMatchObject({ status: 'ready' });
    expect(await host.api['tools:call']({ server: 'big', tool: 'echo', args: { text: 'after' } })).toMatchObject({
      content: [{ type: 'text', text: 'big:after' }],
    });
    const errors = view?.stderrTail.filter((l) => l.startsWith('[switchboard] error:')) ?? [];
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(
      /^\[switchboard\] error: server "big" wrote a stdout line of over 16 MiB without a newline; it was discarded \(it begins "NOT JSON: ZZZZ.*"\)\. One MCP message may be at most 16 MiB \(the maxMessageBytes limit\)\.$/,
    );
    // The 16 MiB limit bounds what is held; the 50 MB line itself never is (generous bound: no GC is forced).
    expect(peak / 2 ** 20).toBeLessThan(150);
  }, 60_000);

  it('a reply over the limit fails its call at once (naming the limit), and the server keeps working', async () => {
    host = await hostWith({ huge: { command: process.execPath, args: [edge, '--name=huge'] } }, { maxMessageBytes: 1024 * 1024 });
    await host.settled();
    await expect(host.api['tools:call']({ server: 'huge', tool: 'huge', args: { mb: 3 } })).rejects.toThrow(
      "Calling huge/huge failed: The server's reply was larger than the 1 MiB per-message limit and was discarded.",
    );
    expect(text(await host.api['tools:call']({ server: 'huge', tool: 'echo', args: { text: 'still here' } }))).toContain('huge:still here');
    const view = (await viewsOf(host)).huge;
    expect(view?.stderrTail.filter((l) => l.startsWith('[switchboard] error:'))).toEqual([
      expect.stringMatching(
        /^\[switchboard\] error: server "huge" wrote its reply to request \d+ as a stdout line of over 1 MiB; it was discarded .*; that request failed\.$/,
      ),
    ]);
  });

  it('lines split across many chunks and floods of small messages all arrive intact', async () => {
    host = await hostWith({ edge: { command: process.execPath, args: [edge] } });
    await host.settled();
    // 10,000 notifications then the answer: every line is read, in order, and the call completes.
    expect(text(await host.api['tools:call']({ server: 'edge', tool: 'flood', args: { count: 10_000 } }))).toContain('sent 10000');
    // A reply of ~3 MB arrives in many pipe chunks and is joined once.
    const result = await host.api['tools:call']({ server: 'edge', tool: 'huge', args: { mb: 3 } });
    expect((result.content[0] as { text?: string } | undefined)?.text?.length).toBe(3 * 1024 * 1024);
  });
});
