import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileSettings } from './file-store';
import { tempDir } from '../../test-support/processes';

/* The CLI's and headless mode's settings: the desktop app's config.json (electron-store's plain JSON), read and written directly. */

describe('FileSettings', () => {
  it('creates config.json (0600, tab-indented like electron-store) with its default on first use', () => {
    const dir = join(tempDir(), 'data');
    const settings = new FileSettings(dir);
    const file = join(dir, 'config.json');
    expect(readFileSync(file, 'utf8')).toBe('{\n\t"envAllowList": []\n}\n');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(settings.envAllowList()).toEqual([]);
    expect(settings.theme()).toBe('system');
  });

  it('reads afresh (the app may change the file meanwhile), keeps keys it does not know, and null deletes a key', () => {
    const dir = tempDir();
    const file = join(dir, 'config.json');
    writeFileSync(file, JSON.stringify({ envAllowList: ['LANG'], windowBounds: { width: 800 }, supervision: { autoRestart: false } }));
    const settings = new FileSettings(dir);
    expect(settings.supervision()).toEqual({ autoRestart: false });
    writeFileSync(file, JSON.stringify({ envAllowList: ['LANG', 'JAVA_HOME'], windowBounds: { width: 800 }, supervision: { autoRestart: false } }));
    expect(settings.envAllowList()).toEqual(['LANG', 'JAVA_HOME']);

    settings.update({ supervision: null, theme: 'dark', roots: ['~/projects'] });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      envAllowList: ['LANG', 'JAVA_HOME'],
      windowBounds: { width: 800 },
      theme: 'dark',
      roots: ['~/projects'],
    });
    expect(settings.supervision()).toEqual({});
    expect(settings.defaultRoots()).toEqual(['~/projects']);
  });

  it('a file that is not a JSON object reads as the defaults and is never overwritten', () => {
    const dir = tempDir();
    const file = join(dir, 'config.json');
    writeFileSync(file, '{"envAllowList": ["LANG"');
    const settings = new FileSettings(dir);
    expect(settings.envAllowList()).toEqual([]);
    expect(() => settings.update({ theme: 'dark' })).toThrow(/config\.json is not a JSON object, so the settings were not saved/);
    expect(readFileSync(file, 'utf8')).toBe('{"envAllowList": ["LANG"');
  });

  it('the span export (`telemetry`, what the CLI and headless mode use): read and written; an invalid one reads as off', () => {
    const dir = tempDir();
    const file = join(dir, 'config.json');
    const settings = new FileSettings(dir);
    expect(settings.telemetry()).toBeUndefined();
    settings.update({ telemetry: { enabled: true, endpoint: 'http://localhost:4318/v1/traces', headers: { 'x-api-key': 'k' } } });
    expect(JSON.parse(readFileSync(file, 'utf8')).telemetry).toEqual({
      enabled: true,
      endpoint: 'http://localhost:4318/v1/traces',
      headers: { 'x-api-key': 'k' },
    });
    expect(settings.telemetry()?.endpoint).toBe('http://localhost:4318/v1/traces');
    writeFileSync(file, JSON.stringify({ envAllowList: [], telemetry: { enabled: true, endpoint: 'ftp://nowhere' } }));
    expect(settings.telemetry()).toBeUndefined();
  });
});
