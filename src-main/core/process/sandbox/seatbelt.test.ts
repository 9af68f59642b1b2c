import { describe, expect, it } from 'vitest';
import { sbplString, seatbeltProfile } from './seatbelt';

describe('the macOS profile', () => {
  it('denies by default, allows the system to be read, denies the homes and temp folders, then allows back', () => {
    const profile = seatbeltProfile({
      read: ['/Users/me/data "x"'],
      write: ['/Users/me/out'],
      network: false,
      hidden: ['/Users/me', '/Users', '/private/tmp'],
      cwd: '/Users/me/proj',
      tmp: '/Users/me/.tmp',
    });
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

  it('denies .env files and the working folder over what allows them, then allows its own package, denies Switchboard, allows its private folders', () => {
    const profile = seatbeltProfile({
      read: ['/srv/listed'],
      write: [],
      network: true,
      hidden: ['/Users/me'],
      cwd: '/d/sandbox/x/cwd',
      tmp: '/t',
      masked: ['/srv/work'],
      own: ['/srv/work/pkg'],
      protect: ['/d'],
      private: ['/d/sandbox/x/cache', '/d/sandbox/x/cwd'],
    });
    const lines = profile.trim().split('\n');
    const index = (text: string): number => lines.findIndex((l) => l.includes(text));
    expect(index('(allow file-read* (subpath "/d/sandbox/x/cwd") (subpath "/srv/listed"))')).toBeLessThan(index('\\.env'));
    expect(lines[index('\\.env')]).toBe('(deny file-read* file-write* (regex #"/\\.env(\\.[^/]*)?$"))');
    expect(index('\\.env')).toBeLessThan(index('(deny file-read* file-write* (subpath "/srv/work"))'));
    expect(index('(deny file-read* file-write* (subpath "/srv/work"))')).toBeLessThan(index('(allow file-read* (subpath "/srv/work/pkg"))'));
    expect(index('(allow file-read* (subpath "/srv/work/pkg"))')).toBeLessThan(index('(deny file-read* file-write* (subpath "/d"))'));
    expect(index('(deny file-read* file-write* (subpath "/d"))')).toBeLessThan(
      index('(allow file-read* file-write* (subpath "/d/sandbox/x/cache") (subpath "/d/sandbox/x/cwd"))'),
    );
  });
});
