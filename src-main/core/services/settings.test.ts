import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test-support/processes';
import { FileSettings } from '../settings/file-store';
import { SettingsService } from './settings';

/* The Settings screen's channels on the real settings file (conf, as the CLI and headless mode use it). */

describe('settings:get / settings:update', () => {
  it('stores a valid change in the settings file and reads it back (what the core then uses)', async () => {
    const dir = tempDir('switchboard-settings-');
    let changes = 0;
    const service = new SettingsService(new FileSettings(dir), () => changes++);
    const before = await service.api['settings:get']();
    expect(before).toMatchObject({ envAllowList: [], supervision: {}, theme: 'system', writable: true });
    expect(before.supervisionDefaults.requestTimeoutMs).toBe(60_000);

    const after = await service.api['settings:update']({
      envAllowList: ['JAVA_HOME', 'HTTPS_PROXY'],
      supervision: { requestTimeoutMs: 120_000, autoRestart: false },
      roots: ['~/projects'],
      theme: 'dark',
    });
    expect(after).toMatchObject({
      envAllowList: ['JAVA_HOME', 'HTTPS_PROXY'],
      supervision: { requestTimeoutMs: 120_000, autoRestart: false },
      roots: ['~/projects'],
      theme: 'dark',
    });
    expect(changes).toBe(1);
    // Another reader of the same file (the desktop app, the CLI) sees it.
    const other = new FileSettings(dir);
    expect(other.envAllowList()).toEqual(['JAVA_HOME', 'HTTPS_PROXY']);
    expect(other.supervision()).toEqual({ requestTimeoutMs: 120_000, autoRestart: false });
    expect(other.defaultRoots()).toEqual(['~/projects']);
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'))).toMatchObject({ theme: 'dark' });

    // null clears: the defaults apply again.
    const cleared = await service.api['settings:update']({ supervision: null, roots: null });
    expect(cleared.supervision).toEqual({});
    expect(cleared.roots).toBeUndefined();
    expect(cleared.envAllowList).toEqual(['JAVA_HOME', 'HTTPS_PROXY']);
  });

  it('stores the default sandbox (on, network off) where the core reads it, and clears it with null', async () => {
    const dir = tempDir('switchboard-settings-');
    let changes = 0;
    const service = new SettingsService(new FileSettings(dir), () => changes++);
    expect((await service.api['settings:get']()).sandbox).toBeUndefined();

    expect((await service.api['settings:update']({ sandbox: true })).sandbox).toBe(true);
    expect(new FileSettings(dir).sandboxDefault()).toBe(true);
    const after = await service.api['settings:update']({ sandbox: { network: false } });
    expect(after.sandbox).toEqual({ network: false });
    expect(changes).toBe(2);
    // The same file the desktop app and the CLI read: the registry takes its default sandbox from here.
    expect(new FileSettings(dir).sandboxDefault()).toEqual({ network: false });
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'))).toMatchObject({ sandbox: { network: false } });

    const cleared = await service.api['settings:update']({ sandbox: null });
    expect(cleared.sandbox).toBeUndefined();
    expect(new FileSettings(dir).sandboxDefault()).toBeUndefined();
  });

  it.each([
    [{ envAllowList: ['1BAD'] }, /envAllowList\.0: a variable name is letters/],
    [{ envAllowList: ['PATH_X', 'PATH_X'] }, /envAllowList: each name once/],
    [{ supervision: { requestTimeoutMs: 5 } }, /supervision\.requestTimeoutMs/],
    [{ supervision: { nonsense: 1 } }, /supervision/],
    [{ supervision: { restartBaseDelayMs: 9000, restartMaxDelayMs: 1000 } }, /first restart delay is longer/],
    [{ roots: [''] }, /roots/],
    [{ sandbox: 'yes' }, /sandbox: must be true, false/],
    [{ sandbox: { allowRead: [' '] } }, /sandbox\.allowRead\.0: a path cannot be empty/],
    [{ sandbox: { network: 'no' } }, /sandbox/],
    [{ sandbox: { allowExec: [] } }, /sandbox/],
    [{ theme: 'purple' }, /theme/],
  ])('refuses %j, saying which field and why, and stores nothing', async (patch, message) => {
    const dir = tempDir('switchboard-settings-');
    let changes = 0;
    const service = new SettingsService(new FileSettings(dir), () => changes++);
    await expect(service.api['settings:update'](patch as never)).rejects.toMatchObject({ code: 'invalid-argument', message });
    expect(changes).toBe(0);
    expect(await service.api['settings:get']()).toMatchObject({ envAllowList: [], supervision: {}, theme: 'system' });
  });
});
