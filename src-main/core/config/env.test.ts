import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildChildEnv, defaultInheritedNames, resolveEnvReferences } from './env';
import { createHost, type Host } from '../host';
import { StaticSettings } from '../settings/store';
import { nodeRuntime } from './runtime';
import { tempDir } from '../../test-support/processes';

const fixture = join(__dirname, '..', 'fixtures', 'env-server.mjs');

describe('buildChildEnv', () => {
  it('passes only default names, allow-listed names and the server env, with sources', () => {
    const hostEnv = { PATH: '/bin', HOME: '/home/u', SECRET_KEY: 'leak', ALLOWED: 'yes', OTHER: 'no' };
    const { env, sources } = buildChildEnv({ hostEnv, allowList: ['ALLOWED', 'UNSET'], serverEnv: { OWN: '1' } });
    expect(env).toEqual({ PATH: '/bin', HOME: '/home/u', ALLOWED: 'yes', OWN: '1' });
    expect(sources).toEqual({ PATH: 'default', HOME: 'default', ALLOWED: 'allow-list', OWN: 'server-env' });
  });

  it('skips shell-function values like the SDK does', () => {
    const { env } = buildChildEnv({ hostEnv: { PATH: '() { :; }' }, allowList: [], serverEnv: {} });
    expect(env).toEqual({});
  });
});

describe('resolveEnvReferences', () => {
  it('prefers the host environment, then .env, and names what is missing', () => {
    expect(resolveEnvReferences('Bearer ${env:A}-${env:B}', 'x', { A: 'host' }, { A: 'file', B: 'file' })).toBe('Bearer host-file');
    expect(() => resolveEnvReferences('${env:NOPE}', 'mcpServers.s.env.T', {}, {})).toThrow(
      /mcpServers\.s\.env\.T refers to \$\{env:NOPE\}.*NOPE is set neither/,
    );
  });
});

describe('a real child process', () => {
  let host: Host | undefined;
  afterEach(async () => {
    await host?.dispose();
    host = undefined;
  });

  it('receives no secret from the host environment or .env, and nothing beyond the whitelisted names', async () => {
    const dir = tempDir();
    const envDir = tempDir();
    // Secrets planted in both places the host reads: its environment and its private .env files.
    writeFileSync(join(dir, '.env'), 'ANTHROPIC_API_KEY=sk-dotenv-secret\nFROM_DOTENV=dotenv-value\n');
    writeFileSync(join(envDir, '.env'), 'OPENAI_API_KEY=sk-cwd-secret\n');
    const config = join(dir, 'mcp.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          reporter: { command: process.execPath, args: [fixture], env: { OWN: 'own-value', REF: '${env:FROM_DOTENV}', REF2: '${env:HOST_ONLY}' } },
        },
      }),
    );
    const hostEnv = {
      ...process.env,
      SWITCHBOARD_SECRET_TOKEN: 'sk-host-secret',
      HOST_ONLY: 'host-value',
      ALLOWED_NAME: 'allowed-value',
    };
    expect(process.env.ANTHROPIC_API_KEY).toBeUndefined();
    host = await createHost({
      mode: 'headless',
      configPath: config,
      dataDir: dir,
      envDir,
      settings: new StaticSettings(['ALLOWED_NAME']),
      runtime: nodeRuntime(),
      hostEnv,
    });
    await host.settled();
    const [view] = await host.api['servers:list']();
    expect(view?.status, view?.error).toBe('ready');
    const result = await host.api['tools:call']({ server: 'reporter', tool: 'env', args: {} });
    const first = result.content[0];
    if (first?.type !== 'text') throw new Error('expected a text block');
    const childEnv = JSON.parse(first.text) as Record<string, string>;
    const text = JSON.stringify(childEnv);
    for (const secret of ['sk-host-secret', 'sk-dotenv-secret', 'sk-cwd-secret']) expect(text).not.toContain(secret);
    expect(childEnv.OWN).toBe('own-value');
    expect(childEnv.REF).toBe('dotenv-value');
    expect(childEnv.REF2).toBe('host-value');
    expect(childEnv.ALLOWED_NAME).toBe('allowed-value');
    // Node itself may add nothing to a child's environment; anything beyond these names is a leak.
    const permitted = new Set([...defaultInheritedNames, 'ALLOWED_NAME', 'OWN', 'REF', 'REF2']);
    expect(Object.keys(childEnv).filter((name) => !permitted.has(name))).toEqual([]);
    // Reading .env left the host's own process.env alone.
    for (const name of ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'FROM_DOTENV']) expect(process.env[name], name).toBeUndefined();
  });

  it("never resolves the host's own LLM keys for a server, unless the user allow-listed the name", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, '.env'), 'ANTHROPIC_API_KEY=sk-ant-private\n');
    const config = join(dir, 'mcp.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { sneaky: { command: process.execPath, args: [fixture], env: { X: '${env:ANTHROPIC_API_KEY}' } } } }));
    host = await createHost({
      mode: 'headless',
      configPath: config,
      dataDir: dir,
      envDir: dir,
      settings: new StaticSettings(),
      runtime: nodeRuntime(),
      hostEnv: { PATH: process.env.PATH },
    });
    await host.settled();
    const [view] = await host.api['servers:list']();
    expect(view?.status).toBe('error');
    expect(view?.error).toMatch(/mcpServers\.sneaky\.env\.X refers to \$\{env:ANTHROPIC_API_KEY\}, which is Switchboard's own LLM key/);
    await host.dispose();
    // Allow-listed on purpose: then it resolves.
    host = await createHost({
      mode: 'headless',
      configPath: config,
      dataDir: dir,
      envDir: dir,
      settings: new StaticSettings(['ANTHROPIC_API_KEY']),
      runtime: nodeRuntime(),
      hostEnv: { PATH: process.env.PATH },
    });
    await host.settled();
    const result = await host.api['tools:call']({ server: 'sneaky', tool: 'env', args: {} });
    expect(result.content[0]?.type === 'text' ? JSON.parse(result.content[0].text) : {}).toMatchObject({ X: 'sk-ant-private' });
  });

  it('fails only the server whose ${env:NAME} is unset, with a readable reason', async () => {
    const dir = tempDir();
    const config = join(dir, 'mcp.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          good: { command: process.execPath, args: [fixture] },
          bad: { command: process.execPath, args: [fixture], env: { TOKEN: '${env:DEFINITELY_UNSET_VAR}' } },
        },
      }),
    );
    host = await createHost({
      mode: 'headless',
      configPath: config,
      dataDir: dir,
      envDir: dir,
      settings: new StaticSettings(),
      runtime: nodeRuntime(),
      hostEnv: { PATH: process.env.PATH },
    });
    await host.settled();
    const views = await host.api['servers:list']();
    expect(views.find((v) => v.name === 'good')?.status).toBe('ready');
    const bad = views.find((v) => v.name === 'bad');
    expect(bad?.status).toBe('error');
    expect(bad?.error).toMatch(/mcpServers\.bad\.env\.TOKEN refers to \$\{env:DEFINITELY_UNSET_VAR\}/);
  });
});
