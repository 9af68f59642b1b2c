import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { configPathFromArgv, dataDirFromArgv, resolveLocations } from './locations';

const mainUrl = pathToFileURL(join('/app', 'out', 'main', 'index.js')).href;

describe('resolveLocations', () => {
  it('finds the preload and renderer next to the built main file', () => {
    const locations = resolveLocations(mainUrl, undefined);
    expect(locations.preload).toBe(join('/app', 'out', 'preload', 'index.cjs'));
    expect(locations.rendererHtml).toBe(join('/app', 'out', 'renderer', 'index.html'));
    expect(locations.devServerUrl).toBeUndefined();
  });

  it('trusts only the built index.html when there is no dev server', () => {
    const { isRendererUrl, rendererHtml } = resolveLocations(mainUrl, undefined);
    const href = pathToFileURL(rendererHtml).href;
    expect(isRendererUrl(href)).toBe(true);
    expect(isRendererUrl(`${href}#/servers?x=1`)).toBe(true);
    expect(isRendererUrl(pathToFileURL('/app/out/renderer/other.html').href)).toBe(false);
    expect(isRendererUrl(pathToFileURL('/etc/passwd').href)).toBe(false);
    expect(isRendererUrl('http://localhost:5173/')).toBe(false);
    expect(isRendererUrl('not a url')).toBe(false);
  });

  it('trusts the dev server origin only, under electron-vite dev', () => {
    const { isRendererUrl, devServerUrl } = resolveLocations(mainUrl, 'http://localhost:5173/');
    expect(devServerUrl).toBe('http://localhost:5173/');
    expect(isRendererUrl('http://localhost:5173/index.html')).toBe(true);
    expect(isRendererUrl('http://localhost:5174/')).toBe(false);
    expect(isRendererUrl('http://evil.example/')).toBe(false);
    expect(isRendererUrl(pathToFileURL('/app/out/renderer/index.html').href)).toBe(false);
  });
});

describe('configPathFromArgv', () => {
  it('reads --config=FILE and --config FILE, relative to cwd', () => {
    expect(configPathFromArgv(['electron', '.', '--config=servers.json'], '/work')).toBe(join('/work', 'servers.json'));
    expect(configPathFromArgv(['electron', '.', '--config', '/abs/mcp.json'], '/work')).toBe('/abs/mcp.json');
    expect(configPathFromArgv(['electron', '.'], '/work')).toBeUndefined();
    expect(configPathFromArgv(['electron', '--config'], '/work')).toBeUndefined();
  });
});

describe('dataDirFromArgv', () => {
  it('reads --data-dir=DIR and --data-dir DIR, relative to cwd', () => {
    expect(dataDirFromArgv(['electron', '.', '--data-dir=qa-data'], '/work')).toBe(join('/work', 'qa-data'));
    expect(dataDirFromArgv(['electron', '.', '--config', '/abs/mcp.json', '--data-dir', '/tmp/d'], '/work')).toBe('/tmp/d');
    expect(dataDirFromArgv(['electron', '.', '--config', '/abs/mcp.json'], '/work')).toBeUndefined();
  });
});
