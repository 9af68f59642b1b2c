import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigStore } from '../config/store';
import { MemorySecretStore } from '../secrets/store';
import { tempDir } from '../../test-support/processes';
import { HostEventBus } from './events';
import type { InstallServiceOptions } from './install';
import { lazyInstallService } from './install-lazy';

const stores: ConfigStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.dispose();
});

function options(): InstallServiceOptions {
  const dir = tempDir();
  const configPath = join(dir, 'mcp.json');
  writeFileSync(configPath, JSON.stringify({ mcpServers: {} }));
  const store = new ConfigStore(configPath);
  stores.push(store);
  return { store, secrets: new MemorySecretStore(), dataDir: dir, apply: async () => undefined, events: new HostEventBus(() => undefined) };
}

describe('lazyInstallService', () => {
  it('serves nothing until `after` settles, then forwards every call to InstallService in order', async () => {
    let release: () => void = () => undefined;
    const after = new Promise<void>((resolve) => (release = resolve));
    const events = new HostEventBus(() => undefined);
    const offered: string[] = [];
    events.on('install:offered', (e) => offered.push(e.url));
    const install = lazyInstallService({ ...options(), events }, after);
    let answered = false;
    const pending = install.api['install:pending']().then((value) => {
      answered = true;
      return value;
    });
    install.offerLink('switchboard://install?x=1');
    const later = install.api['install:pending']();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect([answered, offered]).toEqual([false, []]);
    release();
    // The first call was made before the link was offered, the second after: each sees what was there when it was made.
    expect(await pending).toBeNull();
    expect(offered).toEqual(['switchboard://install?x=1']);
    expect(await later).toBe('switchboard://install?x=1');
  });

  it('once ready, announces an offered link at once, as InstallService does', async () => {
    const events = new HostEventBus(() => undefined);
    const offered: string[] = [];
    events.on('install:offered', (e) => offered.push(e.url));
    const install = lazyInstallService({ ...options(), events }, Promise.resolve());
    await install.ready;
    install.offerLink('switchboard://install?x=2');
    expect(offered).toEqual(['switchboard://install?x=2']);
    expect(await install.api['install:pending']()).toBe('switchboard://install?x=2');
  });

  it('loads after a failed `after` too', async () => {
    const install = lazyInstallService(options(), Promise.reject(new Error('a start failed')));
    expect(await install.api['install:pending']()).toBeNull();
  });
});
