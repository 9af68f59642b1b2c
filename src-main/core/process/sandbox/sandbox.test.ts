import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../../host';
import { nodeRuntime } from '../../config/runtime';
import { StaticSettings } from '../../settings/store';
import { pidsWith, tempDir, waitFor } from '../../../test-support/processes';
import { packageRoot as repoRoot } from '../../support/paths';
import { findBubblewrap, privateCwd, resetSandboxProbe } from './bubblewrap';
import { envFileSearch, findEnvFiles } from './env-files';
import { deniedHint, effectiveSandbox, planSandbox, switchboardFolders } from './index';
import { folderNameOf, npxPackages, privateFolderOf, seedNpxCache } from './private-folder';

const probe = join(process.cwd(), 'src-main', 'core', 'fixtures', 'sandbox-probe.mjs');

describe('the sandbox setting', () => {
  it('takes the entry first (false turns a default off), then the settings default', () => {
    expect(effectiveSandbox(undefined, undefined)).toBeUndefined();
    expect(effectiveSandbox(false, true)).toBeUndefined();
    expect(effectiveSandbox(undefined, true)).toEqual({ allowRead: [], allowWrite: [], network: true });
    expect(effectiveSandbox({ allowRead: ['a'], network: false }, true)).toEqual({ allowRead: ['a'], allowWrite: [], network: false });
  });

  it('does not start where no sandbox is available, and says why', () => {
    const plan = planSandbox(
      { allowRead: [], allowWrite: [], network: true },
      { command: '/bin/true', args: [], cwd: '/', home: '/home/x', baseDir: '/', platform: 'win32' },
    );
    expect(plan.wrap).toBeUndefined();
    expect(plan.info).toMatchObject({ kind: 'unavailable', reason: expect.stringMatching(/no sandbox is available on win32/) });
  });
});

describe("the server's own folders", () => {
  it('binds the package a script under home belongs to (the installing project for node_modules), and a hidden cwd', () => {
    const dir = tempDir();
    const home = join(dir, 'home');
    const project = join(home, 'proj');
    const pkg = join(project, 'node_modules', 'some-server');
    mkdirSync(join(pkg, 'dist'), { recursive: true });
    writeFileSync(join(project, 'package.json'), '{}');
    writeFileSync(join(pkg, 'package.json'), '{}');
    writeFileSync(join(pkg, 'dist', 'index.js'), '');
    const plan = planSandbox(
      { allowRead: [], allowWrite: [], network: true },
      { command: process.execPath, args: ['--flag', join(pkg, 'dist', 'index.js')], cwd: join(home, 'work'), home, baseDir: dir, platform: 'linux' },
    );
    expect(plan.info.read).toEqual([project, join(home, 'work')]);
    // A script of its own, no manifest: its folder. The home folder as cwd is not bound (it stays empty inside).
    mkdirSync(join(home, 'loose'));
    writeFileSync(join(home, 'loose', 's.js'), '');
    expect(
      planSandbox(
        { allowRead: ['~/data'], allowWrite: [], network: true },
        { command: process.execPath, args: ['s.js'], cwd: join(home, 'loose'), home, baseDir: dir, platform: 'linux' },
      ).info.read,
    ).toEqual([join(home, 'loose'), join(home, 'data')]);
    expect(
      planSandbox({ allowRead: [], allowWrite: [], network: true }, { command: process.execPath, args: [], cwd: home, home, baseDir: dir, platform: 'linux' })
        .info.read,
    ).toEqual([]);
  });
});

describe("a sandbox's private folder", () => {
  it('is named after the server, safely (a hash tells apart names made safe)', () => {
    expect(privateFolderOf('/d/sandbox', 'github')).toBe('/d/sandbox/github');
    expect(folderNameOf('..')).toMatch(/^_\.-[0-9a-f]{12}$/);
    expect(folderNameOf('a/b')).not.toBe(folderNameOf('a_b'));
    expect(folderNameOf('a/b')).toMatch(/^a_b-[0-9a-f]{12}$/);
  });

  it("is seeded with the person's npx install of exactly the packages asked for (a copy), nothing else", () => {
    const dir = tempDir();
    const user = join(dir, 'user-npm');
    const mine = join(dir, 'private-npm');
    const install = (hash: string, deps: Record<string, string>): void => {
      mkdirSync(join(user, '_npx', hash, 'node_modules', 'x'), { recursive: true });
      writeFileSync(join(user, '_npx', hash, 'package.json'), JSON.stringify({ dependencies: deps }));
      writeFileSync(join(user, '_npx', hash, 'node_modules', 'x', 'index.js'), 'original');
    };
    install('aaaa', { '@scope/server': '^1.0.0' });
    install('bbbb', { other: '^1.0.0' });
    install('cccc', { '@scope/server': '^1.0.0', other: '^1.0.0' });
    expect(npxPackages(['-y', '@scope/server@1.2.3', '--flag'])).toEqual(['@scope/server']);
    expect(npxPackages(['--package=a', '-p', 'b@2', 'cmd'])).toEqual(['a', 'b']);
    expect(npxPackages(['exec', '--yes', 'pkg@latest'])).toEqual(['pkg']);
    expect(seedNpxCache(user, mine, ['-y', '@scope/server@1.2.3'])).toEqual(['aaaa']);
    expect(readFileSync(join(mine, '_npx', 'aaaa', 'node_modules', 'x', 'index.js'), 'utf8')).toBe('original');
    // A copy: what the server changes in its own is not the person's.
    writeFileSync(join(mine, '_npx', 'aaaa', 'node_modules', 'x', 'index.js'), 'changed');
    expect(readFileSync(join(user, '_npx', 'aaaa', 'node_modules', 'x', 'index.js'), 'utf8')).toBe('original');
    // Once there, it is the server's: not copied again.
    expect(seedNpxCache(user, mine, ['-y', '@scope/server'])).toEqual([]);
  });

  it('finds the .env files of the folders it shows, within bounds, skipping node_modules, .git and its own package', () => {
    const dir = tempDir();
    for (const sub of ['a/b', 'node_modules/m', '.git', 'own', 'a/b/c/d/e/f']) mkdirSync(join(dir, sub), { recursive: true });
    for (const file of ['.env', '.env.local', 'a/b/.env', 'node_modules/m/.env', '.git/.env', 'own/.env', 'a/b/c/d/e/f/.env', 'a/.envrc', 'a/env'])
      writeFileSync(join(dir, file), 'X=1');
    expect(findEnvFiles([dir], [join(dir, 'own')]).sort()).toEqual([join(dir, '.env'), join(dir, '.env.local'), join(dir, 'a', 'b', '.env')].sort());
    expect(envFileSearch.depth).toBeLessThan(5);
  });

  it("lists Switchboard's own folders and files: the data folder, the default app folders, the config file, the host's .env files", () => {
    const own = switchboardFolders({ dataDir: '/d', configPath: '/p/mcp.json', env: { HOME: '/h', XDG_CONFIG_HOME: '/h/.config' }, envDirs: ['/w'] });
    expect(own).toEqual(expect.arrayContaining(['/d', '/p/mcp.json', '/p/mcp.json.bak', '/w/.env']));
    expect(own.some((p) => p.endsWith('/Switchboard'))).toBe(true);
  });
});

describe('the denied-access hint', () => {
  const info = { kind: 'bubblewrap' as const, read: ['/work/allowed'], write: [], network: false };
  it('names the setting for a path in a hidden folder, and for the network', () => {
    expect(deniedHint("Error: ENOENT: no such file or directory, open '/home/me/.ssh/id_rsa'", 'fs', info, ['/home/me'])).toMatch(
      /\/home\/me\/\.ssh\/id_rsa is outside .*"allowRead" or "allowWrite" in mcpServers\.fs\.sandbox/,
    );
    expect(deniedHint('connect ENETUNREACH 1.1.1.1:443', 'fs', info, [])).toMatch(/"network": true in mcpServers\.fs\.sandbox/);
    expect(deniedHint("EROFS: read-only file system, open '/work/allowed/x'", 'fs', info, [])).toMatch(/read-only .*"allowWrite"/);
    expect(deniedHint('listening on port 3000', 'fs', info, ['/home/me'])).toBeUndefined();
    expect(deniedHint(`Error: Cannot find module '${privateCwd}/server.js'`.replace('Cannot find module', 'ENOENT'), 'fs', info, [])).toMatch(
      /empty private folder .*"cwd" in mcpServers\.fs/,
    );
  });
});

describe.skipIf(process.platform !== 'linux')(process.platform === 'linux' ? 'no sandbox available' : 'no sandbox available (skipped: not Linux)', () => {
  let host: Host | undefined;
  afterEach(async () => {
    await host?.dispose();
    host = undefined;
    delete process.env.SWITCHBOARD_BWRAP;
    resetSandboxProbe();
  });

  it('does not start the server, never runs it unsandboxed, and says why', async () => {
    process.env.SWITCHBOARD_BWRAP = '/nonexistent/bwrap';
    resetSandboxProbe();
    const dir = tempDir();
    const marker = `--marker=${randomUUID()}`;
    const configPath = join(dir, 'mcp.json');
    writeFileSync(configPath, JSON.stringify({ mcpServers: { boxed: { command: process.execPath, args: [probe, marker], sandbox: true } } }));
    host = await createHost({
      mode: 'headless',
      configPath,
      dataDir: dir,
      envDir: dir,
      settings: new StaticSettings([], { autoRestart: false }),
      runtime: nodeRuntime(),
      watchConfig: false,
    });
    await host.settled();
    const [view] = await host.api['servers:list']();
    expect(view).toMatchObject({ status: 'error', launch: { sandbox: { kind: 'unavailable', reason: expect.stringContaining('/nonexistent/bwrap') } } });
    expect(view?.error).toMatch(/mcpServers\.boxed\.sandbox asks for a sandbox, but .*never run unsandboxed/);
    // The code and data beside the English, for the UI and the CLI to word (the sandbox's own reason as the cause).
    expect(view?.launch?.sandbox?.reasonInfo).toEqual({ code: 'bwrap-override-missing', data: { path: '/nonexistent/bwrap' } });
    expect(view?.errorInfo).toMatchObject({
      code: 'sandbox-unavailable',
      data: { server: 'boxed', reason: 'entry' },
      cause: { code: 'bwrap-override-missing', data: { path: '/nonexistent/bwrap' }, text: 'SWITCHBOARD_BWRAP names /nonexistent/bwrap, which does not exist' },
    });
    expect(view?.pid).toBeUndefined();
    expect(pidsWith(marker)).toEqual([]);
  });

  it('applies the settings default to an entry without a sandbox key, and false on the entry turns it off', async () => {
    process.env.SWITCHBOARD_BWRAP = '/nonexistent/bwrap';
    resetSandboxProbe();
    const dir = tempDir();
    const configPath = join(dir, 'mcp.json');
    writeFileSync(
      configPath,
      JSON.stringify({
        mcpServers: { defaulted: { command: process.execPath, args: [probe] }, optedOut: { command: process.execPath, args: [probe], sandbox: false } },
      }),
    );
    host = await createHost({
      mode: 'headless',
      configPath,
      dataDir: dir,
      envDir: dir,
      settings: new StaticSettings([], { autoRestart: false }, true),
      runtime: nodeRuntime(),
      watchConfig: false,
    });
    await host.settled();
    const views = await host.api['servers:list']();
    expect(views.find((v) => v.name === 'defaulted')).toMatchObject({
      status: 'error',
      error: expect.stringContaining('the settings default "sandbox" asks for a sandbox'),
    });
    expect(views.find((v) => v.name === 'optedOut')).toMatchObject({ status: 'ready' });
  });
});

const bwrap = process.platform === 'linux' ? findBubblewrap(process.env.PATH) : { ok: false as const, reason: 'not Linux' };

describe.skipIf(!bwrap.ok)(bwrap.ok ? 'a sandboxed server under bubblewrap' : `a sandboxed server under bubblewrap (skipped: ${bwrap.reason})`, () => {
  let host: Host | undefined;
  let listener: Server | undefined;
  afterEach(async () => {
    await host?.dispose();
    host = undefined;
    await new Promise<void>((resolve) => (listener ? listener.close(() => resolve()) : resolve()));
    listener = undefined;
  });

  it('cannot read a planted ~/.ssh file or open a socket with network: false, and can read its allowed folder', async () => {
    const dir = tempDir();
    const home = join(dir, 'home');
    mkdirSync(join(home, '.ssh'), { recursive: true });
    writeFileSync(join(home, '.ssh', 'id_ed25519'), 'PRIVATE KEY\n');
    mkdirSync(join(dir, 'allowed'));
    writeFileSync(join(dir, 'allowed', 'data.txt'), 'ALLOWED DATA\n');
    listener = createServer((socket) => socket.end());
    await new Promise<void>((resolve) => listener?.listen(0, '127.0.0.1', () => resolve()));
    const address = listener.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const marker = `--marker=${randomUUID()}`;
    const configPath = join(dir, 'mcp.json');
    writeFileSync(
      configPath,
      JSON.stringify({
        mcpServers: {
          boxed: { command: process.execPath, args: [probe, marker], sandbox: { allowRead: ['allowed'], network: false } },
          netted: { command: process.execPath, args: [probe], sandbox: true },
          open: { command: process.execPath, args: [probe] },
        },
      }),
    );
    host = await createHost({
      mode: 'headless',
      configPath,
      dataDir: join(dir, 'data'),
      envDir: dir,
      hostEnv: { HOME: home, PATH: process.env.PATH },
      settings: new StaticSettings(),
      runtime: nodeRuntime(),
      watchConfig: false,
    });
    await host.settled();
    const views = await host.api['servers:list']();
    expect(views.map((v) => [v.name, v.status])).toEqual([
      ['boxed', 'ready'],
      ['netted', 'ready'],
      ['open', 'ready'],
    ]);
    const boxed = views.find((v) => v.name === 'boxed');
    // The probe's own package (this checkout) shows: it is the host's working folder (hidden), but the server's own.
    expect(boxed?.launch?.sandbox).toEqual({ kind: 'bubblewrap', read: [repoRoot(), join(dir, 'allowed')], write: [], network: false });
    expect(views.find((v) => v.name === 'open')?.launch?.sandbox).toBeUndefined();
    const call = async (server: string, tool: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean }> => {
      const result = await host!.api['tools:call']({ server, tool, args });
      const first = result.content[0];
      return { text: first?.type === 'text' ? first.text : '', isError: result.isError === true };
    };
    const key = join(home, '.ssh', 'id_ed25519');

    // Unsandboxed, the planted key is readable (so the test plants what it means to).
    expect(await call('open', 'read', { path: key })).toEqual({ text: 'PRIVATE KEY\n', isError: false });
    const denied = await call('boxed', 'read', { path: key });
    expect(denied.isError).toBe(true);
    expect(denied.text).not.toContain('PRIVATE');
    expect(await call('boxed', 'read', { path: join(dir, 'allowed', 'data.txt') })).toEqual({ text: 'ALLOWED DATA\n', isError: false });
    // The system is there, read-only.
    expect((await call('boxed', 'read', { path: '/etc/hostname' })).isError).toBe(false);
    expect((await call('boxed', 'write', { path: join(dir, 'allowed', 'new.txt'), text: 'x' })).isError).toBe(true);

    // network: false: no socket reaches the host's loopback listener; with the network on, it does.
    const blocked = await call('boxed', 'connect', { host: '127.0.0.1', port });
    expect(blocked.text).not.toBe('connected');
    expect(blocked.isError).toBe(true);
    expect(await call('netted', 'connect', { host: '127.0.0.1', port })).toEqual({ text: 'connected', isError: false });

    // The denied read shows up in the stderr tail with a hint naming the setting.
    await waitFor(
      async () => ((await host!.api['servers:list']()).find((v) => v.name === 'boxed')?.stderrTail ?? []).some((l) => l.includes('mcpServers.boxed.sandbox')),
      5000,
      'the sandbox hint in the stderr tail',
    );

    // The whole sandboxed tree ends with the server.
    expect(pidsWith(marker).length).toBeGreaterThan(0);
    await host.dispose();
    host = undefined;
    await waitFor(() => pidsWith(marker).length === 0, 10_000, 'the sandboxed server to be gone');
  });
});

describe.skipIf(!bwrap.ok)(bwrap.ok ? 'what a sandbox never shows or shares' : `what a sandbox never shows or shares (skipped: ${bwrap.reason})`, () => {
  let host: Host | undefined;
  const cleanups: Array<() => void> = [];
  afterEach(async () => {
    await host?.dispose();
    host = undefined;
    for (const cleanup of cleanups.splice(0).reverse()) cleanup();
  });

  interface Started {
    call: (server: string, tool: string, args: Record<string, unknown>) => Promise<{ text: string; isError: boolean }>;
  }
  /** A host with these servers, its data folder `dataDir` (the config file in it) and the person's HOME `home`. */
  async function start(servers: Record<string, unknown>, at: { dataDir: string; home: string; envDir: string }): Promise<Started> {
    mkdirSync(at.dataDir, { recursive: true });
    mkdirSync(at.home, { recursive: true });
    const configPath = join(at.dataDir, 'mcp.json');
    writeFileSync(configPath, JSON.stringify({ mcpServers: servers }));
    host = await createHost({
      mode: 'headless',
      configPath,
      dataDir: at.dataDir,
      envDir: at.envDir,
      hostEnv: { HOME: at.home, PATH: process.env.PATH },
      settings: new StaticSettings([], { autoRestart: false }),
      runtime: nodeRuntime(),
      watchConfig: false,
    });
    await host.settled();
    const views = await host.api['servers:list']();
    expect(views.filter((v) => v.status !== 'ready').map((v) => [v.name, v.status, v.error])).toEqual([]);
    return {
      call: async (server, tool, args) => {
        const result = await host!.api['tools:call']({ server, tool, args });
        const first = result.content[0];
        return { text: first?.type === 'text' ? first.text : '', isError: result.isError === true };
      },
    };
  }

  it("writes its package caches to a private folder in the data folder, never to the person's, and that folder goes with the entry", async () => {
    const dir = tempDir();
    const home = join(dir, 'home');
    const dataDir = join(dir, 'data');
    const installed = join(home, '.npm', '_npx', '0123456789abcdef', 'node_modules', 'semver', 'bin');
    mkdirSync(installed, { recursive: true });
    const shared = join(installed, 'semver.js');
    writeFileSync(shared, 'original\n');
    mkdirSync(join(home, '.cache', 'uv'), { recursive: true });
    // Started as `npx` (node under that name, outside the folders the sandbox hides), as the package launchers are.
    const bin = mkdtempSync('/var/tmp/switchboard-test-');
    cleanups.push(() => rmSync(bin, { recursive: true, force: true }));
    symlinkSync(process.execPath, join(bin, 'npx'));
    const { call } = await start({ boxed: { command: join(bin, 'npx'), args: [probe], sandbox: true } }, { dataDir, home, envDir: dir });

    // What the next unsandboxed `npx` would run is out of reach: the write lands in the private cache, if anywhere.
    await call('boxed', 'write', { path: shared, text: 'process.exit(66)\n' });
    expect(readFileSync(shared, 'utf8')).toBe('original\n');
    expect(await call('boxed', 'write', { path: join(home, '.npm', 'marker'), text: 'npm' })).toEqual({ text: 'written', isError: false });
    expect(await call('boxed', 'write', { path: join(home, '.cache', 'marker'), text: 'xdg' })).toEqual({ text: 'written', isError: false });
    expect(existsSync(join(home, '.npm', 'marker'))).toBe(false);
    expect(existsSync(join(home, '.cache', 'marker'))).toBe(false);
    const own = join(dataDir, 'sandbox', 'boxed');
    expect(readFileSync(join(own, 'cache', 'npm', 'marker'), 'utf8')).toBe('npm');
    expect(readFileSync(join(own, 'cache', 'xdg', 'marker'), 'utf8')).toBe('xdg');
    // The tools' own settings name the private cache too (a cache path of the person's own never reaches inside).
    const env = JSON.parse((await call('boxed', 'run', { command: '/usr/bin/env', args: [] })).text) as { stdout: string };
    for (const line of [
      `npm_config_cache=${join(home, '.npm')}`,
      `XDG_CACHE_HOME=${join(home, '.cache')}`,
      `UV_CACHE_DIR=${join(home, '.cache', 'uv')}`,
      `PIP_CACHE_DIR=${join(home, '.cache', 'pip')}`,
    ])
      expect(env.stdout.split('\n')).toContain(line);

    await host!.api['servers:remove']('boxed');
    await host!.fleet.applied();
    expect(existsSync(own)).toBe(false);
  });

  it("hides the host's working folder and its .env, Switchboard's data folder, and runs without cwd in an empty private folder", async () => {
    // Outside /tmp and home, where nothing hid them before.
    const outside = mkdtempSync('/var/tmp/switchboard-test-');
    cleanups.push(() => rmSync(outside, { recursive: true, force: true }));
    const work = join(outside, 'work');
    mkdirSync(join(work, 'sub'), { recursive: true });
    writeFileSync(join(work, '.env'), 'OPENAI_API_KEY=sk-test-working-folder\n');
    writeFileSync(join(work, 'sub', '.env'), 'TOKEN=nested-dotenv\n');
    writeFileSync(join(work, 'notes.txt'), 'NOTES\n');
    const dataDir = join(outside, 'data');
    const { call } = await start(
      {
        plain: { command: process.execPath, args: [probe], sandbox: true },
        dotted: { command: process.execPath, args: [probe], cwd: '.', sandbox: true },
        listed: { command: process.execPath, args: [probe], sandbox: { allowRead: [work] } },
        open: { command: process.execPath, args: [probe] },
      },
      { dataDir, home: join(outside, 'home'), envDir: work },
    );
    host!.secrets.set('PLANTED', 'planted-secret-value');
    expect((await call('open', 'read', { path: join(work, '.env') })).text).toContain('sk-test-working-folder');
    expect((await call('open', 'read', { path: join(dataDir, 'secrets.json') })).text).toContain('planted-secret-value');

    // No cwd: an empty private folder, not the host's working folder (whose files stay hidden).
    const listing = JSON.parse((await call('plain', 'list', {})).text) as { cwd: string; entries: string[] };
    expect(listing.entries).toEqual([]);
    expect([work, process.cwd()]).not.toContain(listing.cwd);
    for (const path of [join(work, '.env'), join(work, 'notes.txt')]) expect((await call('plain', 'read', { path })).text).not.toMatch(/sk-test|NOTES/);
    // "cwd": "." is the config file's folder, here the data folder: shown empty.
    for (const path of ['secrets.json', join(dataDir, 'secrets.json'), join(dataDir, 'mcp.json')])
      expect((await call('dotted', 'read', { path })).text).not.toMatch(/planted-secret-value|mcpServers/);
    // Listed in allowRead: the folder shows, its .env files never do.
    expect(await call('listed', 'read', { path: join(work, 'notes.txt') })).toEqual({ text: 'NOTES\n', isError: false });
    expect((await call('listed', 'read', { path: join(work, '.env') })).text).not.toContain('sk-test');
    expect((await call('listed', 'read', { path: join(work, 'sub', '.env') })).text).not.toContain('nested-dotenv');
  });

  const runDir = `/run/switchboard-test-${process.pid}`;
  const canMakeRunDir = ((): boolean => {
    try {
      mkdirSync(runDir, { recursive: true });
      rmSync(runDir, { recursive: true });
      return true;
    } catch {
      return false;
    }
  })();
  it.skipIf(!canMakeRunDir)(
    canMakeRunDir
      ? 'reaches no unix socket under /run with network: false'
      : 'reaches no unix socket under /run with network: false (skipped: /run is not writable here)',
    async () => {
      mkdirSync(runDir, { recursive: true });
      cleanups.push(() => rmSync(runDir, { recursive: true, force: true }));
      const socketPath = join(runDir, 's.sock');
      const listener = createServer((socket) => socket.end());
      await new Promise<void>((resolve) => listener.listen(socketPath, () => resolve()));
      cleanups.push(() => listener.close());
      const dir = tempDir();
      const { call } = await start(
        {
          boxed: { command: process.execPath, args: [probe], sandbox: { network: false } },
          netted: { command: process.execPath, args: [probe], sandbox: true },
        },
        { dataDir: join(dir, 'data'), home: join(dir, 'home'), envDir: dir },
      );
      expect(await call('netted', 'connect', { path: socketPath })).toEqual({ text: 'connected', isError: false });
      const blocked = await call('boxed', 'connect', { path: socketPath });
      expect(blocked.text).not.toBe('connected');
      expect(blocked.isError).toBe(true);
    },
  );

  it("cannot leave its cgroup or remount anything (no capabilities, even as root), nor read the host's /proc/<pid>/environ", async () => {
    const dir = tempDir();
    const { call } = await start(
      { boxed: { command: process.execPath, args: [probe], sandbox: true }, open: { command: process.execPath, args: [probe] } },
      { dataDir: join(dir, 'data'), home: join(dir, 'home'), envDir: dir },
    );
    const status = await call('boxed', 'read', { path: '/proc/self/status' });
    expect(status.text).toMatch(/^CapEff:\s+0+$/m);
    // A cgroup it could make (after remounting the cgroup file system writable, as root could) is one it could move to.
    const script =
      'for d in /sys/fs/cgroup /sys/fs/cgroup/*; do [ -f "$d/cgroup.procs" ] || continue; mount -o remount,bind,rw "$d" 2>/dev/null; if mkdir "$d/switchboard-probe-$$" 2>/dev/null; then rmdir "$d/switchboard-probe-$$"; echo "WRITABLE $d"; fi; done; echo done';
    const run = JSON.parse((await call('boxed', 'run', { command: '/bin/sh', args: ['-c', script] })).text) as { stdout: string };
    expect(run.stdout).toBe('done\n');
    // Its own pid namespace: the host's process is not there to read.
    const environ = `/proc/${process.pid}/environ`;
    expect((await call('open', 'read', { path: environ })).text).toContain('PATH=');
    expect((await call('boxed', 'read', { path: environ })).text).not.toContain('PATH=');
  });
});
