import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { FuseV1Options, getCurrentFuseWire } from '@electron/fuses';
import { Arch, type AfterPackContext } from 'electron-builder';
import { describe, expect, it } from 'vitest';
import config, { afterPack, afterPackQa } from '../../electron-builder.config';
import qaConfig from '../../electron-builder.qa.config';
import { packageRoot } from '../core/support/paths';
import { tempDir } from '../test-support/processes';
import { fuseConfigFor } from './fuses';

/*
 * Electron's binary cannot be downloaded on every machine, so the hook runs on a stand-in: bytes around Electron's
 * fuse wire as the real binary has it — the sentinel, the wire's version (1) and length, then one byte per fuse
 * ('0' off, '1' on) — found and patched by @electron/fuses exactly as in a real build.
 */
const sentinel = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
const off = '0'.charCodeAt(0);
const on = '1'.charCodeAt(0);
/** Electron's defaults, plus a ninth fuse as newer Electrons have, which our config must leave alone. */
const electronDefaults = [on, off, on, on, off, off, off, on, on];

function fakeElectron(fuses: readonly number[]): Buffer {
  const wire = Buffer.from([1, fuses.length, ...fuses]);
  return Buffer.concat([Buffer.from('\x7fELF fake electron ...'), Buffer.from(sentinel), wire, Buffer.from('... the rest of the binary')]);
}

function writeFakeElectron(file: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, fakeElectron(electronDefaults));
}

function contextFor(appOutDir: string, platform: string, arch: Arch): AfterPackContext {
  const packager = { appInfo: { productFilename: 'Switchboard' }, ...(platform === 'linux' ? { executableName: 'switchboard' } : {}) };
  return { appOutDir, outDir: dirname(appOutDir), electronPlatformName: platform, arch, targets: [], packager } as unknown as AfterPackContext;
}

/** The fuse wire after the hook, by name: 48 ('0') off, 49 ('1') on. */
async function fusesOf(file: string): Promise<Record<string, number | undefined>> {
  const wire = (await getCurrentFuseWire(file)) as unknown as Record<string, number>;
  const names = Object.keys(FuseV1Options).filter((key) => Number.isNaN(Number(key)));
  return Object.fromEntries([...names.map((name) => [name, wire[String(FuseV1Options[name as keyof typeof FuseV1Options])]]), ['ninth', wire['8']]]);
}

describe('the afterPack hook flips the Electron fuses of the packed binary', () => {
  it('Linux: RunAsNode, NODE_OPTIONS and --inspect off, cookie encryption on; no ASAR integrity (Electron has none there)', async () => {
    const dir = tempDir();
    const binary = join(dir, 'linux-unpacked', 'switchboard');
    writeFakeElectron(binary);
    await afterPack(contextFor(dirname(binary), 'linux', Arch.x64));
    expect(await fusesOf(binary)).toEqual({
      RunAsNode: off,
      EnableCookieEncryption: on,
      EnableNodeOptionsEnvironmentVariable: off,
      EnableNodeCliInspectArguments: off,
      EnableEmbeddedAsarIntegrityValidation: off,
      OnlyLoadAppFromAsar: off,
      LoadBrowserProcessSpecificV8Snapshot: off,
      GrantFileProtocolExtraPrivileges: on,
      ninth: on,
    });
    // Only the wire changed: same length, same bytes around it.
    expect(readFileSync(binary).equals(fakeElectron([off, on, off, off, off, off, off, on, on]))).toBe(true);
  });

  it.each([
    // On macOS the wire is in the framework; @electron/fuses finds it from the .app bundle.
    ['darwin', 'Switchboard.app', join('Switchboard.app', 'Contents', 'Frameworks', 'Electron Framework.framework', 'Electron Framework')],
    ['win32', 'Switchboard.exe', 'Switchboard.exe'],
  ])('%s: the same, plus embedded ASAR integrity validation and loading the app only from app.asar', async (platform, app, file) => {
    const dir = tempDir();
    writeFakeElectron(join(dir, 'packed', file));
    // x64: arm64 Macs also re-sign ad hoc (codesign), which only a Mac has; that setting is checked below.
    await afterPack(contextFor(join(dir, 'packed'), platform, Arch.x64));
    expect(await fusesOf(join(dir, 'packed', app))).toMatchObject({
      RunAsNode: off,
      EnableCookieEncryption: on,
      EnableNodeOptionsEnvironmentVariable: off,
      EnableNodeCliInspectArguments: off,
      EnableEmbeddedAsarIntegrityValidation: on,
      OnlyLoadAppFromAsar: on,
    });
  });

  it('re-signs ad hoc only on arm64 macOS, and fails the build when the binary has no fuse wire', async () => {
    expect(fuseConfigFor('darwin', 'arm64').resetAdHocDarwinSignature).toBe(true);
    expect(fuseConfigFor('darwin', 'x64').resetAdHocDarwinSignature).toBe(false);
    expect(fuseConfigFor('linux', 'arm64').resetAdHocDarwinSignature).toBe(false);
    const dir = tempDir();
    writeFileSync(join(dir, 'switchboard'), 'not electron');
    await expect(afterPack(contextFor(dir, 'linux', Arch.x64))).rejects.toThrow(/Could not find sentinel/);
  });
});

describe('the packaging config', () => {
  it('runs that hook, packs into app.asar with the resources, and does not also set electronFuses (no second, different flip)', () => {
    expect(config.afterPack).toBe(afterPack);
    expect(config.electronFuses).toBeUndefined();
    expect(config.asar).toBe(true);
    expect(config.npmRebuild).toBe(false);
    expect(config.files).toEqual(expect.arrayContaining(['out/**/*', 'resources/**/*', 'package.json']));
    expect(config.productName).toBe('Switchboard');
  });

  it('npm run package builds with it', () => {
    const pkg = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.package).toBe('electron-vite build && electron-builder --config electron-builder.config.ts');
  });
});

describe('the QA flavour (npm run package:qa): the packaged app Playwright can drive', () => {
  it('differs from the release build in one fuse: --inspect arguments on (Playwright starts Electron with --inspect=0)', () => {
    for (const [platform, arch] of [
      ['linux', 'x64'],
      ['darwin', 'universal'],
      ['win32', 'x64'],
    ] as const) {
      const release = fuseConfigFor(platform, arch);
      const qa = fuseConfigFor(platform, arch, 'qa');
      expect(release[FuseV1Options.EnableNodeCliInspectArguments]).toBe(false);
      expect(qa[FuseV1Options.EnableNodeCliInspectArguments]).toBe(true);
      expect({ ...qa, [FuseV1Options.EnableNodeCliInspectArguments]: false }).toEqual(release);
    }
  });

  it('its hook flips exactly that on the packed binary', async () => {
    const dir = tempDir();
    const binary = join(dir, 'linux-unpacked', 'switchboard-qa');
    writeFakeElectron(binary);
    await afterPackQa({
      ...contextFor(dirname(binary), 'linux', Arch.x64),
      packager: { appInfo: { productFilename: 'Switchboard QA' }, executableName: 'switchboard-qa' },
    } as unknown as AfterPackContext);
    expect(await fusesOf(binary)).toMatchObject({
      RunAsNode: off,
      EnableNodeOptionsEnvironmentVariable: off,
      EnableNodeCliInspectArguments: on,
      EnableCookieEncryption: on,
    });
  });

  it('is the release config under its own name, id and output folder, with the QA hook, never published', () => {
    expect(qaConfig.afterPack).toBe(afterPackQa);
    expect(qaConfig.productName).toBe('Switchboard QA');
    expect(qaConfig.appId).toBe('dev.switchboard.desktop.qa');
    expect(qaConfig.appId).not.toBe(config.appId);
    expect(qaConfig.directories?.output).toBe('dist-qa');
    expect(qaConfig.publish).toBeNull();
    const differs = new Set(['afterPack', 'productName', 'appId', 'directories', 'publish', 'linux']);
    const same = (c: typeof config): Record<string, unknown> => Object.fromEntries(Object.entries(c).filter(([key]) => !differs.has(key)));
    expect(same(qaConfig)).toEqual(same(config));
    expect({ ...qaConfig.linux, executableName: 'switchboard' }).toEqual(config.linux);
  });

  it('npm run package:qa builds with it', () => {
    const pkg = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts['package:qa']).toBe('electron-vite build && electron-builder --config electron-builder.qa.config.ts');
  });
});
