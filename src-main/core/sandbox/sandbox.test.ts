import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../host';
import { nodeRuntime } from '../runtime';
import { StaticSettings } from '../settings';
import { pidsWith, tempDir, waitFor } from '../../test-support/processes';
import { packageRoot as repoRoot } from '../paths';
import { bubblewrapArgs, deniedHint, effectiveSandbox, findBubblewrap, planSandbox, resetSandboxProbe } from './index';
import { sbplString, seatbeltProfile } from './seatbelt';

const probe = join(process.cwd(), 'src-main', 'core', 'fixtures', 'sandbox-probe.mjs');

describe('the sandbox setting', () => {
  it('takes the entry first (false turns a default off), then the settings default', () => {
    expect(effectiveSandbox(undefined, undefined)).toBeUndefined();
    expect(effectiveSandbox(false, true)).toBeUndefined();
    expect(effectiveSandbox(undefined, true)).toEqual({ allowRead: [], allowWrite: [], network: true });
    expect(effectiveSandbox({ allowRead: ['a'], network: false }, true)).toEqual({ allowRead: ['a'], allowWrite: [], network: false });
  });

  it('does not start where no sandbox is available, and says why', () => {
    const plan = planSandbox({ allowRead: [], allowWrite: [], network: true }, { command: '/bin/true', args: [], cwd: '/', home: '/home/x', baseDir: '/', platform: 'win32' });
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
    const plan = planSandbox({ allowRead: [], allowWrite: [], network: true }, { command: process.execPath, args: ['--flag', join(pkg, 'dist', 'index.js')], cwd: join(home, 'work'), home, baseDir: dir, platform: 'linux' });
    expect(plan.info.read).toEqual([project, join(home, 'work')]);
    // A script of its own, no manifest: its folder. The home folder as cwd is not bound (it stays empty inside).
    mkdirSync(join(home, 'loose'));
    writeFileSync(join(home, 'loose', 's.js'), '');
    expect(planSandbox({ allowRead: ['~/data'], allowWrite: [], network: true }, { command: process.execPath, args: ['s.js'], cwd: join(home, 'loose'), home, baseDir: dir, platform: 'linux' }).info.read).toEqual([join(home, 'loose'), join(home, 'data')]);
    expect(planSandbox({ allowRead: [], allowWrite: [], network: true }, { command: process.execPath, args: [], cwd: home, home, baseDir: dir, platform: 'linux' }).info.read).toEqual([]);
  });
});

describe('bubblewrap arguments', () => {
  it('mounts the system read-only, then hides the homes and /tmp, then binds back what is allowed, in that order', () => {
    const args = bubblewrapArgs({ read: ['/tmp/t/allowed'], write: ['/tmp/t/out'], network: false, hidden: ['/tmp/t/home', '/tmp'], cwd: '/srv', home: '/tmp/t/home' });
    expect(args.slice(0, 3)).toEqual(['--ro-bind', '/', '/']);
    const at = (flag: string, path: string): number => args.findIndex((a, i) => a === flag && args[i + 1] === path);
    expect(at('--tmpfs', '/tmp')).toBeLessThan(at('--tmpfs', '/tmp/t/home'));
    expect(at('--tmpfs', '/tmp/t/home')).toBeLessThan(at('--ro-bind-try', '/tmp/t/allowed'));
    expect(at('--bind-try', '/tmp/t/out')).toBeGreaterThan(0);
    expect(args).toContain('--unshare-net');
    expect(args).toContain('--die-with-parent');
    expect(bubblewrapArgs({ read: [], write: [], network: true, hidden: [], cwd: '/', home: '/h' })).not.toContain('--unshare-net');
  });
});

describe('the macOS profile', () => {
  it('denies by default, allows the system to be read, denies the homes and temp folders, then allows back', () => {
    const profile = seatbeltProfile({ read: ['/Users/me/data "x"'], write: ['/Users/me/out'], network: false, hidden: ['/Users/me', '/Users', '/private/tmp'], cwd: '/Users/me/proj', tmp: '/Users/me/.tmp' });
    const lines = profile.trim().split('\n');
    expect(lines[0]).toBe('(version 1)');
    expect(lines[1]).toBe('(deny default)');
    const index = (text: string): number => lines.findIndex((l) => l.includes(text));
    expect(index('(allow file-read* (subpath "/"))')).toBeLessThan(index('(deny file-read* (subpath "/Users/me")'));
    expect(index('(deny file-read*')).toBeLessThan(index('(allow file-read* (subpath "/Users/me/proj")'));
    expect(profile).toContain(`(subpath ${sbplString('/Users/me/data "x"')})`);
    expect(sbplString('a"b\\c')).toBe('"a\\"b\\\\c"');
    expect(profile).toMatch(/\(allow file-read\* file-write\* \(subpath "\/Users\/me\/\.tmp"\) \(subpath "\/Users\/me\/out"\)/);
    expect(profile).not.toContain('(allow network*)');
    expect(seatbeltProfile({ read: [], write: [], network: true, hidden: [], cwd: '/', tmp: '/t' })).toContain('(allow network*)');
  });
});

describe('the denied-access hint', () => {
  const info = { kind: 'bubblewrap' as const, read: ['/work/allowed'], write: [], network: false };
  it('names the setting for a path in a hidden folder, and for the network', () => {
    expect(deniedHint("Error: ENOENT: no such file or directory, open '/home/me/.ssh/id_rsa'", 'fs', info, ['/home/me'])).toMatch(/\/home\/me\/\.ssh\/id_rsa is outside .*"allowRead" or "allowWrite" in mcpServers\.fs\.sandbox/);
    expect(deniedHint('connect ENETUNREACH 1.1.1.1:443', 'fs', info, [])).toMatch(/"network": true in mcpServers\.fs\.sandbox/);
    expect(deniedHint("EROFS: read-only file system, open '/work/allowed/x'", 'fs', info, [])).toMatch(/read-only .*"allowWrite"/);
    expect(deniedHint('listening on port 3000', 'fs', info, ['/home/me'])).toBeUndefined();
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
    host = await createHost({ mode: 'headless', configPath, dataDir: dir, envDir: dir, settings: new StaticSettings([], { autoRestart: false }), runtime: nodeRuntime(), watchConfig: false });
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
    writeFileSync(configPath, JSON.stringify({ mcpServers: { defaulted: { command: process.execPath, args: [probe] }, optedOut: { command: process.execPath, args: [probe], sandbox: false } } }));
    host = await createHost({ mode: 'headless', configPath, dataDir: dir, envDir: dir, settings: new StaticSettings([], { autoRestart: false }, true), runtime: nodeRuntime(), watchConfig: false });
    await host.settled();
    const views = await host.api['servers:list']();
    expect(views.find((v) => v.name === 'defaulted')).toMatchObject({ status: 'error', error: expect.stringContaining('the settings default "sandbox" asks for a sandbox') });
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
    host = await createHost({ mode: 'headless', configPath, dataDir: join(dir, 'data'), envDir: dir, hostEnv: { HOME: home, PATH: process.env.PATH }, settings: new StaticSettings(), runtime: nodeRuntime(), watchConfig: false });
    await host.settled();
    const views = await host.api['servers:list']();
    expect(views.map((v) => [v.name, v.status])).toEqual([['boxed', 'ready'], ['netted', 'ready'], ['open', 'ready']]);
    const boxed = views.find((v) => v.name === 'boxed');
    expect(boxed?.launch?.sandbox).toEqual({ kind: 'bubblewrap', read: [...ownPackageIfHidden(), join(dir, 'allowed')], write: [], network: false });
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
    await waitFor(async () => ((await host!.api['servers:list']()).find((v) => v.name === 'boxed')?.stderrTail ?? []).some((l) => l.includes('mcpServers.boxed.sandbox')), 5000, 'the sandbox hint in the stderr tail');

    // The whole sandboxed tree ends with the server.
    expect(pidsWith(marker).length).toBeGreaterThan(0);
    await host.dispose();
    host = undefined;
    await waitFor(() => pidsWith(marker).length === 0, 10_000, 'the sandboxed server to be gone');
  });
});

/**
 * The fixture's own package (this checkout) is listed as readable only when the checkout lies in a folder the
 * sandbox hides (a clone under /tmp or /root, as on CI); elsewhere the read-only system already shows it.
 */
function ownPackageIfHidden(): string[] {
  const repo = repoRoot();
  return ['/home', '/root', '/tmp', '/run/user'].some((h) => repo === h || repo.startsWith(`${h}/`)) ? [repo] : [];
}
