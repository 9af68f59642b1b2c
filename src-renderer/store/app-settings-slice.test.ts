import { describe, expect, it, vi } from 'vitest';
import type { AppSettingsView, HostApi } from '../../src-shared/host-api';
import { HostCallError } from '../../src-shared/host-api';
import { createAppStore } from './index';
import { fakeHost } from './fake-host';

const store = (overrides: Partial<HostApi>) => createAppStore(fakeHost(overrides, []).client);

describe('app settings', () => {
  const settings: AppSettingsView = { envAllowList: [], supervision: {}, supervisionDefaults: {}, theme: 'system', writable: true };

  it('a refused change returns the host’s reason and puts the theme back', async () => {
    const s = store({
      'settings:get': vi.fn(async () => settings),
      'settings:update': vi.fn(async () => {
        throw new HostCallError({ code: 'invalid-argument', message: 'That setting is not valid — theme: nope.' });
      }),
    });
    await s.getState().loadAppSettings();
    const refused = await s.getState().updateAppSettings({ theme: 'dark' });
    expect(refused).toBe('That setting is not valid — theme: nope.');
    expect(s.getState().appSettings?.theme).toBe('system');
  });

  it('the servers sidebar folds and unfolds', () => {
    const s = store({});
    const before = s.getState().sidebarCollapsed;
    s.getState().toggleSidebar();
    expect(s.getState().sidebarCollapsed).toBe(!before);
    s.getState().toggleSidebar();
    expect(s.getState().sidebarCollapsed).toBe(before);
  });
});
