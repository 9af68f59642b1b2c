import { createRequire } from 'node:module';
import { afterEach, describe, expect, it, vi } from 'vitest';

const electronApp = vi.hoisted(() => ({ isPackaged: false }));
vi.mock('electron', () => ({ app: electronApp }));

const { startUpdateChecks } = await import('./updates');
const updaterEntry = createRequire(import.meta.url).resolve('electron-updater');

describe('update checks', () => {
  afterEach(() => {
    electronApp.isPackaged = false;
  });

  it('are skipped in a dev or unpackaged run: electron-updater is never loaded, nothing is logged', () => {
    const log = vi.fn();
    const checks = startUpdateChecks(log, {});
    checks.dispose();
    checks.dispose();
    expect(log).not.toHaveBeenCalled();
    expect(Object.keys(createRequire(import.meta.url).cache)).not.toContain(updaterEntry);
  });

  it('are skipped in a packaged app when SWITCHBOARD_NO_UPDATES=1', () => {
    electronApp.isPackaged = true;
    const log = vi.fn();
    startUpdateChecks(log, { SWITCHBOARD_NO_UPDATES: '1' }).dispose();
    expect(log).not.toHaveBeenCalled();
    expect(Object.keys(createRequire(import.meta.url).cache)).not.toContain(updaterEntry);
  });
});
