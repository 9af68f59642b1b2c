import { describe, expect, it, vi } from 'vitest';
import type { ConfigText, HostApi } from '../../src-shared/host-api';
import { createAppStore } from './index';
import { fakeHost } from './fake-host';

const text = (body: string, hash = body): ConfigText => ({ path: '/c/mcp.json', text: body, hash, backupPath: '/c/mcp.json.bak' });

describe('config slice', () => {
  it('follows the file: a pushed change wins over a read that started before it', async () => {
    let resolveRead: (t: ConfigText) => void = () => undefined;
    const read = vi.fn(() => new Promise<ConfigText>((r) => (resolveRead = r)));
    const { client, fire, listeners } = fakeHost({ 'config:read': read });
    const store = createAppStore(client);
    const off = store.getState().followConfig();
    expect(read).toHaveBeenCalledOnce();
    fire('config:changed', text('new'));
    resolveRead(text('old'));
    await Promise.resolve();
    await Promise.resolve();
    expect(store.getState().configText?.text).toBe('new');
    off();
    expect(listeners.get('config:changed')?.size).toBe(0);
  });

  it('follows the secret names: each secrets:changed (another tab, the CLI) replaces the list', async () => {
    const { client, fire, listeners } = fakeHost({ 'config:read': vi.fn(() => Promise.resolve(text('x'))) });
    const store = createAppStore(client);
    const off = store.getState().followConfig();
    expect(store.getState().secretsLoaded).toBe(false);
    fire('secrets:changed', { names: ['a', 'b'] });
    expect(store.getState()).toMatchObject({ secretNames: ['a', 'b'], secretsLoaded: true });
    fire('secrets:changed', { names: ['b'] });
    expect(store.getState().secretNames).toEqual(['b']);
    off();
    expect(listeners.get('secrets:changed')?.size).toBe(0);
  });

  it('a save stores what main returns; a refused save throws its message and changes nothing', async () => {
    const save = vi
      .fn<HostApi['config:save']>()
      .mockResolvedValueOnce(text('saved'))
      .mockRejectedValueOnce({ code: 'config-invalid', message: '/c/mcp.json:2:3: nope' });
    const { client } = fakeHost({ 'config:save': save });
    const store = createAppStore(client);
    await store.getState().saveConfig('saved', 'h0');
    expect(save).toHaveBeenCalledWith({ text: 'saved', baseHash: 'h0' });
    expect(store.getState().configText?.text).toBe('saved');
    await expect(store.getState().saveConfig('bad', 'saved')).rejects.toMatchObject({ message: '/c/mcp.json:2:3: nope' });
    expect(store.getState().configText?.text).toBe('saved');
  });

  it('secrets: the list is refreshed after set and delete, and holds names only', async () => {
    const names: string[] = [];
    const { client } = fakeHost({
      'secrets:list': vi.fn(async () => [...names]),
      'secrets:set': vi.fn(async (name: string) => void names.push(name)),
      'secrets:delete': vi.fn(async (name: string) => names.splice(names.indexOf(name), 1).length > 0),
    });
    const store = createAppStore(client);
    await store.getState().setSecret('TOKEN', 'value');
    expect(store.getState().secretNames).toEqual(['TOKEN']);
    expect(JSON.stringify(store.getState())).not.toContain('"value"');
    await store.getState().deleteSecret('TOKEN');
    expect(store.getState().secretNames).toEqual([]);
  });

  it('the banner’s "open at line" shows the raw editor and makes each request new', () => {
    const { client } = fakeHost();
    const store = createAppStore(client);
    store.getState().openEditorAt(3, 5);
    const first = store.getState().editorJump;
    expect(store.getState()).toMatchObject({ screen: 'servers', serversMode: 'raw', editorJump: { line: 3, column: 5 } });
    store.getState().openEditorAt(3, 5);
    expect(store.getState().editorJump?.seq).not.toBe(first?.seq);
  });
});
