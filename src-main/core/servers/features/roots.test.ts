// Roots (roots/list, notifications/roots/list_changed): the entry's `roots` (relative paths against the config
// file's folder, file:// URIs) or the settings' default, answered to server-everything and the asking fixture
// (2026-07-28 MRTR), and used by server-filesystem as its allowed directories — following a roots-only config edit
// without a restart.
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { StaticSettings } from '../../settings/store';
import { askingHosts, askingServer, everything, textOf } from '../../../test-support/asking-host';
import { waitFor } from '../../../test-support/processes';

const start = askingHosts();
const filesystemEntry = join(process.cwd(), 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js');

describe('roots', () => {
  it('server-everything lists the entry roots; a config change of roots alone is announced, not restarted', async () => {
    const {
      host: h,
      configPath,
      dataDir,
    } = await start({ servers: { everything: { ...everything, roots: ['projects', 'file:///srv/shared'] } }, watchConfig: true });
    const pid = (await h.api['servers:list']())[0]?.pid;
    const first = await h.api['tools:call']({ server: 'everything', tool: 'get-roots-list', args: {} });
    expect(textOf(first)).toContain(pathToFileURL(join(dataDir, 'projects')).href);
    expect(textOf(first)).toContain('file:///srv/shared');
    writeFileSync(configPath, JSON.stringify({ mcpServers: { everything: { ...everything, roots: ['/tmp/elsewhere'] } } }));
    await waitFor(
      async () => textOf(await h.api['tools:call']({ server: 'everything', tool: 'get-roots-list', args: {} })).includes('file:///tmp/elsewhere'),
      10_000,
      'the new roots',
    );
    const after = (await h.api['servers:list']())[0];
    expect(after?.status).toBe('ready');
    expect(after?.pid).toBe(pid);
  });

  it('the settings default applies to entries without roots of their own', async () => {
    const settings = new StaticSettings();
    Object.assign(settings, { defaultRoots: () => ['/opt/default-root'] });
    const { host: h } = await start({ servers: { everything }, settings });
    const result = await h.api['tools:call']({ server: 'everything', tool: 'get-roots-list', args: {} });
    expect(textOf(result)).toContain('file:///opt/default-root');
  });

  it('2026-07-28: roots/list as an input_required round', async () => {
    const { host: h, configPath } = await start({
      servers: { asking: { command: process.execPath, args: [askingServer], roots: ['/data/a', '/data/b'] } },
      versionMode: 'auto',
      watchConfig: true,
    });
    expect((await h.api['servers:list']())[0]).toMatchObject({ status: 'ready', era: 'modern' });
    const result = await h.api['tools:call']({ server: 'asking', tool: 'list-roots', args: {} });
    expect(textOf(result)).toBe('roots: file:///data/a, file:///data/b');
    // A roots-only edit: the next round gets the new roots, the same process keeps running.
    const pid = (await h.api['servers:list']())[0]?.pid;
    writeFileSync(configPath, JSON.stringify({ mcpServers: { asking: { command: process.execPath, args: [askingServer], roots: ['/data/c'] } } }));
    await waitFor(
      async () => textOf(await h.api['tools:call']({ server: 'asking', tool: 'list-roots', args: {} })) === 'roots: file:///data/c',
      10_000,
      'the new roots',
    );
    expect((await h.api['servers:list']())[0]?.pid).toBe(pid);
  });

  it('server-filesystem takes the roots as its allowed directories and follows a change', async () => {
    // The config's folder is the data folder here: two folders (relative roots), a file in each.
    const prepare = (dataDir: string): void => {
      mkdirSync(join(dataDir, 'one'), { recursive: true });
      mkdirSync(join(dataDir, 'two'), { recursive: true });
      writeFileSync(join(dataDir, 'one', 'a.txt'), 'in one');
      writeFileSync(join(dataDir, 'two', 'b.txt'), 'in two');
    };
    const {
      host: h,
      configPath,
      dataDir,
    } = await start({ servers: { files: { command: process.execPath, args: [filesystemEntry], roots: ['one'] } }, watchConfig: true, prepare });
    const real = realpathSync(dataDir);
    const allowed = async (): Promise<string> => textOf(await h.api['tools:call']({ server: 'files', tool: 'list_allowed_directories', args: {} }));
    await waitFor(async () => (await allowed()).includes(join(real, 'one')), 10_000, 'server-filesystem to take the roots');
    expect(textOf(await h.api['tools:call']({ server: 'files', tool: 'read_text_file', args: { path: join(real, 'one', 'a.txt') } }))).toBe('in one');
    const outside = await h.api['tools:call']({ server: 'files', tool: 'read_text_file', args: { path: join(real, 'two', 'b.txt') } });
    expect(outside.isError).toBe(true);
    const pid = (await h.api['servers:list']())[0]?.pid;
    writeFileSync(configPath, JSON.stringify({ mcpServers: { files: { command: process.execPath, args: [filesystemEntry], roots: ['two'] } } }));
    await waitFor(async () => (await allowed()).includes(join(real, 'two')), 10_000, 'server-filesystem to follow the roots change');
    expect(await allowed()).not.toContain(join(real, 'one'));
    expect(textOf(await h.api['tools:call']({ server: 'files', tool: 'read_text_file', args: { path: join(real, 'two', 'b.txt') } }))).toBe('in two');
    expect((await h.api['servers:list']())[0]?.pid).toBe(pid);
  });
});
