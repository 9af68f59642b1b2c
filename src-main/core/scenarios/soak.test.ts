import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHost, type Host } from '../host';
import { StaticSettings } from '../settings/store';
import { nodeRuntime } from '../config/runtime';
import { tempDir, pidsWith } from '../../test-support/processes';

const tiny = join(__dirname, '..', 'fixtures', 'tiny-server.mjs');

async function hostWithTiny(count: number, tag: string): Promise<Host> {
  const dir = tempDir();
  const servers: Record<string, unknown> = {};
  for (let i = 0; i < count; i++) servers[`s${i}`] = { command: process.execPath, args: [tiny, `--name=s${i}`, tag] };
  writeFileSync(join(dir, 'mcp.json'), JSON.stringify({ mcpServers: servers }));
  return createHost({
    mode: 'headless',
    configPath: join(dir, 'mcp.json'),
    dataDir: dir,
    envDir: dir,
    settings: new StaticSettings(),
    runtime: nodeRuntime(),
    policy: { graceMs: 500 },
  });
}

describe('soak and load (real processes)', () => {
  it('100 start/stop cycles of 5 servers leave zero processes', async () => {
    const tag = `--tag=${tempDir()}`;
    const host = await hostWithTiny(5, tag);
    const names = ['s0', 's1', 's2', 's3', 's4'];
    try {
      await host.settled();
      let maxAlive = 0;
      for (let cycle = 0; cycle < 100; cycle++) {
        await Promise.all(names.map((n) => host.fleet.get(n).stop()));
        expect(pidsWith(tag), `after stop in cycle ${cycle}`).toEqual([]);
        await Promise.all(names.map((n) => host.fleet.get(n).start()));
        const views = await host.api['servers:list']();
        expect(
          views.every((v) => v.status === 'ready'),
          `all ready in cycle ${cycle}`,
        ).toBe(true);
        maxAlive = Math.max(maxAlive, pidsWith(tag).length);
      }
      expect(maxAlive).toBe(5);
    } finally {
      await host.dispose();
    }
    expect(pidsWith(tag)).toEqual([]);
  }, 240_000);

  it('20 servers × 200 concurrent calls: zero lost or misrouted responses', async () => {
    const tag = `--tag=${tempDir()}`;
    const host = await hostWithTiny(20, tag);
    try {
      await host.settled();
      expect((await host.api['servers:list']()).filter((v) => v.status === 'ready')).toHaveLength(20);
      const calls: Array<Promise<{ expected: string; got: string }>> = [];
      for (let s = 0; s < 20; s++) {
        for (let c = 0; c < 200; c++) {
          const text = `call-${s}-${c}`;
          calls.push(
            host.api['tools:call']({ server: `s${s}`, tool: 'echo', args: { text } }).then((r) => ({
              expected: `s${s}:${text}`,
              got: r.content[0]?.type === 'text' ? r.content[0].text : JSON.stringify(r),
            })),
          );
        }
      }
      const results = await Promise.allSettled(calls);
      const rejected = results.filter((r) => r.status === 'rejected');
      const wrong = results.filter((r) => r.status === 'fulfilled' && r.value.expected !== r.value.got);
      expect(results).toHaveLength(4000);
      expect(rejected).toEqual([]);
      expect(wrong).toEqual([]);
    } finally {
      await host.dispose();
    }
    expect(pidsWith(tag)).toEqual([]);
  }, 120_000);
});
