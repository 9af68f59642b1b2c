import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileSettings } from './file-store';
import { createHost } from '../host';
import { nodeRuntime } from '../config/runtime';
import { parseSupervisionSettings, StaticSettings } from './store';
import { tempDir, waitFor } from '../../test-support/processes';

const tiny = join(__dirname, '..', 'fixtures', 'tiny-server.mjs');

describe('supervision settings', () => {
  it('keeps valid fields and drops invalid ones (the default then applies)', () => {
    expect(parseSupervisionSettings({ autoRestart: false, restartBaseDelayMs: 250, crashLoopCount: 0, startTimeoutMs: 'x', other: 1 })).toEqual({
      autoRestart: false,
      restartBaseDelayMs: 250,
    });
    expect(parseSupervisionSettings('nonsense')).toEqual({});
    // The health knobs (remote servers' periodic ping).
    expect(parseSupervisionSettings({ pingIntervalMs: 0, pingTimeoutMs: 5000 })).toEqual({ pingIntervalMs: 0, pingTimeoutMs: 5000 });
    expect(parseSupervisionSettings({ pingIntervalMs: -1, pingTimeoutMs: 10 })).toEqual({});
  });

  it('are read from config.json beside the servers config (shared with the desktop app)', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ envAllowList: ['LANG'], supervision: { autoRestart: false, requestTimeoutMs: 5000 } }));
    const settings = new FileSettings(dir);
    expect(settings.envAllowList()).toEqual(['LANG']);
    expect(settings.supervision()).toEqual({ autoRestart: false, requestTimeoutMs: 5000 });
  });

  it('autoRestart: false leaves a crashed server in error', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'mcp.json'), JSON.stringify({ mcpServers: { s: { command: process.execPath, args: [tiny, '--name=s'] } } }));
    const host = await createHost({
      mode: 'headless',
      configPath: join(dir, 'mcp.json'),
      dataDir: dir,
      envDir: dir,
      settings: new StaticSettings([], { autoRestart: false, restartBaseDelayMs: 50 }),
      runtime: nodeRuntime(),
    });
    try {
      await host.settled();
      await host.api['tools:call']({ server: 's', tool: 'crash', args: {} }).catch(() => undefined);
      await waitFor(async () => (await host.api['servers:list']())[0]?.status === 'error', 3000, 'error');
      await new Promise((r) => setTimeout(r, 500));
      const [view] = await host.api['servers:list']();
      expect(view).toMatchObject({ status: 'error', restarts: 0 });
      expect(view?.nextRestartAt).toBeUndefined();
    } finally {
      await host.dispose();
    }
  });
});
