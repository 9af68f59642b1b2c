import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseServersConfig } from './parse';
import { createHost, type Host } from '../host';
import { calculatorPath, packageRoot } from '../support/paths';
import { upgradeLegacyLaunches } from './migrate';
import { electronRuntime, nodeRuntime } from './runtime';
import { StaticSettings } from '../settings/store';
import { tempDir } from '../../test-support/processes';

/**
 * A stand-in for the packaged app's binary: an executable that starts the fake entry (fixtures/fake-app.ts), which
 * handles `--switchboard-run-script` as the real entry does and, like a binary with the RunAsNode fuse off,
 * ignores ELECTRON_RUN_AS_NODE.
 */
function fakeAppBinary(dir: string): string {
  const file = join(dir, 'Switchboard');
  const loader = join(packageRoot(), 'node_modules', 'tsx', 'dist', 'loader.mjs');
  const entry = join(packageRoot(), 'src-main', 'core', 'fixtures', 'fake-app.ts');
  writeFileSync(file, `#!/bin/sh\nexec ${[process.execPath, '--import', loader, entry].map((a) => `'${a}'`).join(' ')} "$@"\n`);
  chmodSync(file, 0o755);
  return file;
}

describe('runtimes', () => {
  it('Node starts a script directly; Electron through the run-script flag (after the entry file when unpackaged), with no ELECTRON_RUN_AS_NODE', () => {
    expect(nodeRuntime()).toEqual({ command: process.execPath, args: [], env: {} });
    expect(electronRuntime('/opt/Switchboard/switchboard')).toEqual({
      command: '/opt/Switchboard/switchboard',
      args: ['--switchboard-run-script', '--'],
      env: {},
    });
    expect(electronRuntime('/repo/node_modules/electron/dist/electron', '/repo/out/main/index.js').args).toEqual([
      '/repo/out/main/index.js',
      '--switchboard-run-script',
      '--',
    ]);
  });
});

describe('upgradeLegacyLaunches (configs written before the fuses)', () => {
  let host: Host | undefined;
  afterEach(async () => {
    await host?.dispose();
    host = undefined;
  });

  it('rewrites the old ELECTRON_RUN_AS_NODE calculator entry once, keeping comments and other servers, and the app then starts it', async () => {
    const dir = tempDir();
    const app = fakeAppBinary(dir);
    const runtime = electronRuntime(app);
    const config = join(dir, 'mcp.json');
    const before = `{
  // my servers
  "mcpServers": {
    "calculator": { "command": ${JSON.stringify(app)}, "args": [${JSON.stringify(calculatorPath())}, "--debug"], "env": { "ELECTRON_RUN_AS_NODE": "1", "CALC_PRECISION": "8" } },
    "bare": { "command": ${JSON.stringify(app)}, "args": [${JSON.stringify(calculatorPath())}], "env": { "ELECTRON_RUN_AS_NODE": "1" } },
    "other-electron": { "command": "/opt/SomeOtherApp/app", "args": ["x.js"], "env": { "ELECTRON_RUN_AS_NODE": "1" } },
    "plain": { "command": "node", "args": ["server.mjs"] }
  }
}
`;
    writeFileSync(config, before);
    const logged: string[] = [];

    expect(await upgradeLegacyLaunches(config, runtime, (line) => logged.push(line))).toEqual(['calculator', 'bare']);
    const text = readFileSync(config, 'utf8');
    expect(text).toContain('// my servers');
    expect(readFileSync(`${config}.bak`, 'utf8')).toBe(before);
    const upgraded = parseServersConfig(text, config).mcpServers;
    expect(upgraded.calculator).toEqual({ command: app, args: ['--switchboard-run-script', '--', calculatorPath(), '--debug'], env: { CALC_PRECISION: '8' } });
    expect(upgraded.bare).toEqual({ command: app, args: ['--switchboard-run-script', '--', calculatorPath()] });
    expect(upgraded['other-electron']).toEqual({ command: '/opt/SomeOtherApp/app', args: ['x.js'], env: { ELECTRON_RUN_AS_NODE: '1' } });
    expect(upgraded.plain).toEqual({ command: 'node', args: ['server.mjs'] });
    expect(logged).toEqual([`${config}: calculator, bare now start with --switchboard-run-script -- instead of ELECTRON_RUN_AS_NODE=1`]);

    // Once: a second start changes nothing.
    expect(await upgradeLegacyLaunches(config, runtime, (line) => logged.push(line))).toEqual([]);
    expect(readFileSync(config, 'utf8')).toBe(text);

    // The upgraded entry runs: the app binary starts the calculator through the flag.
    writeFileSync(config, JSON.stringify({ mcpServers: { calculator: upgraded.calculator } }));
    host = await createHost({ mode: 'headless', configPath: config, dataDir: dir, envDir: dir, settings: new StaticSettings(), runtime });
    await host.settled();
    const [view] = await host.api['servers:list']();
    expect(view).toMatchObject({ name: 'calculator', status: 'ready' });
    expect(await host.api['tools:call']({ server: 'calculator', tool: 'multiply', args: { a: 6, b: 7 } })).toMatchObject({
      content: [{ type: 'text', text: '42' }],
    });
  });

  it('leaves a broken file and a missing file alone', async () => {
    const dir = tempDir();
    const runtime = electronRuntime(fakeAppBinary(dir));
    const config = join(dir, 'mcp.json');
    writeFileSync(config, '{ "mcpServers": { broken');
    expect(await upgradeLegacyLaunches(config, runtime, () => undefined)).toEqual([]);
    expect(readFileSync(config, 'utf8')).toBe('{ "mcpServers": { broken');
    expect(await upgradeLegacyLaunches(join(dir, 'none.json'), runtime, () => undefined)).toEqual([]);
  });
});
