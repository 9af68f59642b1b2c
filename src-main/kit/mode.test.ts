import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/processes';
import { electronBinary, kitMode } from './mode';

/** A package root with the built desktop app, and an `electron` package beside it with (or without) its binary. */
function packageWithElectron(binary: boolean): string {
  const root = tempDir('switchboard-kit-mode-');
  writeFileSync(join(root, 'package.json'), '{"name":"switchboard"}');
  mkdirSync(join(root, 'out', 'main'), { recursive: true });
  writeFileSync(join(root, 'out', 'main', 'index.js'), '');
  const electron = join(root, 'node_modules', 'electron');
  mkdirSync(join(electron, 'dist'), { recursive: true });
  writeFileSync(join(electron, 'package.json'), '{"name":"electron","version":"45.5.0"}');
  writeFileSync(join(electron, 'path.txt'), 'electron');
  if (binary) writeFileSync(join(electron, 'dist', 'electron'), '');
  return root;
}

describe('the kit picks the app it drives', () => {
  it('electron where the electron package has its binary and the desktop app is built; else web', () => {
    const withBinary = packageWithElectron(true);
    expect(kitMode(withBinary, {}, [withBinary])).toBe('electron');
    expect(electronBinary(withBinary, {}, [withBinary])).toEqual({
      executablePath: join(withBinary, 'node_modules', 'electron', 'dist', 'electron'),
      main: join(withBinary, 'out', 'main', 'index.js'),
    });
    const withoutBinary = packageWithElectron(false);
    expect(kitMode(withoutBinary, {}, [withoutBinary])).toBe('web');
    expect(kitMode(tempDir('switchboard-kit-none-'), {}, [])).toBe('web');
  });

  it('SWITCHBOARD_KIT_MODE decides when set; SWITCHBOARD_KIT_ELECTRON_PATH names a packaged build', () => {
    const withBinary = packageWithElectron(true);
    expect(kitMode(withBinary, { SWITCHBOARD_KIT_MODE: 'web' }, [withBinary])).toBe('web');
    expect(kitMode(tempDir('switchboard-kit-none-'), { SWITCHBOARD_KIT_MODE: 'electron' }, [])).toBe('electron');
    expect(() => kitMode(tempDir('switchboard-kit-none-'), { SWITCHBOARD_KIT_MODE: 'chrome' }, [])).toThrow(/use "electron" or "web"/);
    expect(electronBinary(tempDir('switchboard-kit-none-'), { SWITCHBOARD_KIT_ELECTRON_PATH: '/opt/Switchboard QA/switchboard-qa' }, [])).toEqual({
      executablePath: '/opt/Switchboard QA/switchboard-qa',
      main: undefined,
    });
  });
});
