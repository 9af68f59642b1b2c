import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test-support/processes';
import { bubblewrapArgs, engineSockets, privateCwd } from './bubblewrap';
import { planSandbox } from './index';

describe('bubblewrap arguments', () => {
  it('mounts the system read-only, then hides the homes and /tmp, then binds back what is allowed, in that order', () => {
    const args = bubblewrapArgs({
      read: ['/tmp/t/allowed'],
      write: ['/tmp/t/out'],
      network: false,
      hidden: ['/tmp/t/home', '/tmp'],
      cwd: '/srv',
      home: '/tmp/t/home',
    });
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

describe('what the bubblewrap arguments keep out', () => {
  it('binds the private caches after what is allowed, masks after every bind, drops every capability, and hides the socket folders with the network off', () => {
    const dir = tempDir();
    const data = join(dir, 'data');
    mkdirSync(data);
    const empty = join(dir, 'empty');
    writeFileSync(empty, '');
    const args = bubblewrapArgs({
      read: ['/srv/listed'],
      write: [],
      network: false,
      hidden: ['/h', '/tmp', '/run'],
      workdirs: ['/srv/work'],
      caches: [['/d/sandbox/x/cache/npm', '/h/.npm']],
      protect: [data, join(data, 'mcp.json'), '/srv/listed/.env'],
      env: { npm_config_cache: '/h/.npm' },
      emptyFile: empty,
      cwd: privateCwd,
      home: '/h',
    });
    const at = (...flags: string[]): number => args.findIndex((_, i) => flags.every((f, j) => args[i + j] === f));
    expect(at('--tmpfs', '/srv/work')).toBeLessThan(at('--ro-bind-try', '/srv/listed', '/srv/listed'));
    expect(at('--ro-bind-try', '/srv/listed', '/srv/listed')).toBeLessThan(at('--bind', '/d/sandbox/x/cache/npm', '/h/.npm'));
    expect(at('--bind', '/d/sandbox/x/cache/npm', '/h/.npm')).toBeLessThan(at('--tmpfs', data));
    expect(at('--ro-bind', empty, '/srv/listed/.env')).toBeGreaterThan(at('--bind', '/d/sandbox/x/cache/npm', '/h/.npm'));
    // A file inside a masked folder needs no mask of its own.
    expect(at('--ro-bind', empty, join(data, 'mcp.json'))).toBe(-1);
    expect(at('--setenv', 'npm_config_cache', '/h/.npm')).toBeGreaterThan(0);
    expect(at('--cap-drop', 'ALL')).toBeGreaterThan(0);
    expect(at('--tmpfs', '/run')).toBeGreaterThan(0);
    expect(at('--dir', privateCwd)).toBeLessThan(at('--chdir', privateCwd));
  });

  it('hides /run and $XDG_RUNTIME_DIR only with the network off; the container engine sockets always', () => {
    const plan = (network: boolean): string[] =>
      planSandbox(
        { allowRead: [], allowWrite: [], network },
        { command: '/bin/true', args: [], home: '/home/x', baseDir: '/', platform: 'linux', runtimeDir: '/var/xdg-run' },
      ).hidden;
    expect(plan(false)).toEqual(expect.arrayContaining(['/run', '/var/xdg-run']));
    expect(plan(true)).not.toContain('/run');
    expect(plan(true)).not.toContain('/var/xdg-run');
    expect(engineSockets).toContain('/run/docker.sock');
  });
});
