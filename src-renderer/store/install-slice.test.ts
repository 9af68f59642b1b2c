import { describe, expect, it, vi } from 'vitest';
import { fakeHost } from './fake-host';
import { createAppStore } from './index';

const settle = async (): Promise<void> => {
  for (let i = 0; i < 8; i++) await Promise.resolve();
};

describe('install slice: switchboard:// links open the install dialog', () => {
  it("a link pending at start, and one announced later, become the dialog's source; nothing is applied", async () => {
    const pending = vi.fn<() => Promise<string | null>>().mockResolvedValueOnce('switchboard://install?registry=a.b/c').mockResolvedValue(null);
    const apply = vi.fn();
    const { client, fire } = fakeHost({ 'install:pending': pending, 'install:apply': apply });
    const store = createAppStore(client);
    const off = store.getState().watchInstallLinks();
    await settle();
    expect(store.getState().installing).toEqual({ kind: 'link', url: 'switchboard://install?registry=a.b/c' });
    store.getState().openInstall(undefined);
    fire('install:offered', { url: 'switchboard://install?name=x&config=e30' });
    expect(store.getState().installing).toEqual({ kind: 'link', url: 'switchboard://install?name=x&config=e30' });
    off();
    fire('install:offered', { url: 'switchboard://install?registry=d.e/f' });
    expect(store.getState().installing).toEqual({ kind: 'link', url: 'switchboard://install?name=x&config=e30' });
    expect(apply).not.toHaveBeenCalled();
  });
});
