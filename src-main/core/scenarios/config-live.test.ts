import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../host';
import { MemorySecretStore } from '../secrets/store';
import { StaticSettings } from '../settings/store';
import { nodeRuntime } from '../config/runtime';
import { calculatorPath } from '../support/paths';
import { alive, pidsWith, tempDir, waitFor } from '../../test-support/processes';

const tiny = join(__dirname, '..', 'fixtures', 'tiny-server.mjs');
const envServer = join(__dirname, '..', 'fixtures', 'env-server.mjs');
const hostile = join(__dirname, '..', 'fixtures', 'hostile.mjs');

async function hostOn(dir: string, text: string, extra: { secrets?: MemorySecretStore; hostEnv?: Record<string, string | undefined> } = {}): Promise<Host> {
  writeFileSync(join(dir, 'mcp.json'), text);
  return createHost({
    mode: 'headless',
    configPath: join(dir, 'mcp.json'),
    dataDir: dir,
    envDir: dir,
    settings: new StaticSettings(),
    runtime: nodeRuntime(),
    policy: { graceMs: 300 },
    secrets: extra.secrets ?? new MemorySecretStore(),
    ...(extra.hostEnv ? { hostEnv: extra.hostEnv } : {}),
  });
}

const views = async (host: Host) => Object.fromEntries((await host.api['servers:list']()).map((v) => [v.name, v]));

describe('live reload', () => {
  let host: Host | undefined;
  afterEach(async () => {
    await host?.dispose();
    host = undefined;
  });

  it('an external edit restarts only the changed server; added ones start, removed ones stop with their tree', async () => {
    const dir = tempDir();
    const entry = (name: string, ...extra: string[]) => ({ command: process.execPath, args: [tiny, `--name=${name}`, ...extra] });
    // c is a launcher with a grandchild that ignores SIGTERM: removal must end the whole tree.
    const tag = `--tag=${dir}-c`;
    const launcher = { command: process.execPath, args: [hostile, '--mode=launcher', '--name=c', tag] };
    host = await hostOn(dir, JSON.stringify({ mcpServers: { a: entry('a'), b: entry('b'), c: launcher } }, null, 2));
    await host.settled();
    await host.config.ready();
    const before = await views(host);
    const [pidA, pidB, pidC] = [before.a?.pid, before.b?.pid, before.c?.pid];
    await waitFor(() => pidsWith(tag).length === 3, 5000, "c's tree");
    expect([pidA, pidB, pidC].every((p) => typeof p === 'number')).toBe(true);
    // An editor saves by rename: b changes, c goes, d comes.
    writeFileSync(join(dir, 'mcp.json.swp'), JSON.stringify({ mcpServers: { a: entry('a'), b: entry('b', '--changed'), d: entry('d') } }, null, 2));
    renameSync(join(dir, 'mcp.json.swp'), join(dir, 'mcp.json'));
    await waitFor(
      async () => {
        const v = await views(host!);
        return v.d?.status === 'ready' && v.b?.status === 'ready' && v.b.pid !== pidB && v.c === undefined;
      },
      5000,
      'the reload',
    );
    const after = await views(host);
    expect(after.a?.pid).toBe(pidA);
    expect(after.b?.pid).not.toBe(pidB);
    expect(alive(pidB ?? 0)).toBe(false);
    expect(alive(pidC ?? 0)).toBe(false);
    expect(pidsWith(tag)).toEqual([]);
    expect(Object.keys(after)).toEqual(['a', 'b', 'd']);
  });

  it('a broken file keeps the last good config running and says where; fixing it clears the problem', async () => {
    const dir = tempDir();
    const good = JSON.stringify({ mcpServers: { calculator: { command: process.execPath, args: [calculatorPath()] } } }, null, 2);
    host = await hostOn(dir, good);
    await host.settled();
    await host.config.ready();
    const pid = (await views(host)).calculator?.pid;
    const problems: Array<string | undefined> = [];
    host.api.on('app:changed', (info) =>
      problems.push(info.configProblem ? `${info.configProblem.line}:${info.configProblem.column} ${info.configProblem.message}` : undefined),
    );
    writeFileSync(join(dir, 'mcp.json'), good.replace(`"args": [`, `"args": "oops", "x": [`));
    await waitFor(() => problems.length > 0, 3000, 'the problem');
    expect(problems[0]).toBe('5:7 mcpServers.calculator.args must be an array of strings, got a string ("oops")');
    expect((await host.api['app:info']()).configError?.message).toMatch(/mcp\.json:5:7: mcpServers\.calculator\.args/);
    // Still the same process, still answering.
    expect((await views(host)).calculator?.pid).toBe(pid);
    expect((await host.api['tools:call']({ server: 'calculator', tool: 'add', args: { a: 2, b: 3 } })).content).toEqual([{ type: 'text', text: '5' }]);
    // Edits from the app are refused while the file is broken, and the file is left alone.
    const brokenText = readFileSync(join(dir, 'mcp.json'), 'utf8');
    await expect(host.api['servers:set-enabled']('calculator', false)).rejects.toThrow(/Fix it first/);
    expect(readFileSync(join(dir, 'mcp.json'), 'utf8')).toBe(brokenText);
    writeFileSync(join(dir, 'mcp.json'), good);
    await waitFor(() => problems.length > 1 && problems[problems.length - 1] === undefined, 3000, 'the fix');
    expect((await host.api['app:info']()).configProblem).toBeUndefined();
    expect((await views(host)).calculator?.pid).toBe(pid);
  });
});

describe('app edits through the HostApi', () => {
  let host: Host | undefined;
  afterEach(async () => {
    await host?.dispose();
    host = undefined;
  });

  it('upsert, rename, disable, enable and remove — the file keeps the user comment, the servers follow', async () => {
    const dir = tempDir();
    host = await hostOn(dir, `{\n  // mine\n  "mcpServers": {}\n}\n`);
    const tag = `--tag=${dir}-one`;
    await host.api['servers:upsert']({ name: 'one', entry: { command: process.execPath, args: [hostile, '--mode=launcher', '--name=one', tag] } });
    await host.settled();
    expect((await views(host)).one?.status).toBe('ready');
    await waitFor(() => pidsWith(tag).length === 3, 5000, 'the launched tree');
    await host.api['servers:set-enabled']('one', false);
    expect((await views(host)).one).toMatchObject({ status: 'stopped', disabled: true });
    // Disabling ended the whole tree, the SIGTERM-ignoring grandchild included.
    expect(pidsWith(tag)).toEqual([]);
    expect(readFileSync(join(dir, 'mcp.json'), 'utf8')).toContain('"disabled": true');
    await host.api['servers:set-enabled']('one', true);
    await host.settled();
    expect((await views(host)).one?.status).toBe('ready');
    expect(readFileSync(join(dir, 'mcp.json'), 'utf8')).not.toContain('disabled');
    await host.api['servers:upsert']({ name: 'two', previousName: 'one', entry: { command: process.execPath, args: [tiny, '--name=two'] } });
    await host.settled();
    expect(Object.keys(await views(host))).toEqual(['two']);
    await expect(host.api['servers:remove']('nope')).rejects.toMatchObject({ code: 'unknown-server' });
    await host.api['servers:remove']('two');
    expect(await host.api['servers:list']()).toEqual([]);
    const text = readFileSync(join(dir, 'mcp.json'), 'utf8');
    expect(text.startsWith('{\n  // mine\n  "mcpServers": {')).toBe(true);
    expect(readFileSync(join(dir, 'mcp.json.bak'), 'utf8')).toContain('"two"');
  });

  it('export gives Claude-compatible JSON; config:read/save round-trip with the base hash', async () => {
    const dir = tempDir();
    host = await hostOn(dir, JSON.stringify({ mcpServers: { s: { command: 'x', disabled: true }, t: { url: 'http://127.0.0.1:9/mcp', disabled: true } } }));
    expect(JSON.parse(await host.api['config:export']({ names: ['t'] }))).toEqual({ mcpServers: { t: { url: 'http://127.0.0.1:9/mcp', disabled: true } } });
    expect(Object.keys((JSON.parse(await host.api['config:export']({})) as { mcpServers: object }).mcpServers)).toEqual(['s', 't']);
    const read = await host.api['config:read']();
    const saved = await host.api['config:save']({ text: read.text.replace('"x"', '"y"'), baseHash: read.hash });
    expect(saved.text).toContain('"y"');
    await expect(host.api['config:save']({ text: read.text, baseHash: read.hash })).rejects.toThrow(/changed on disk/);
  });
});

describe('secrets and inputs', () => {
  let host: Host | undefined;
  afterEach(async () => {
    await host?.dispose();
    host = undefined;
  });

  it('${secret:NAME} reaches only the server that names it; an unanswered ${input:ID} waits, then starts once answered', async () => {
    const dir = tempDir();
    const secrets = new MemorySecretStore();
    secrets.set('GH_TOKEN', 'ghp_secret_value');
    host = await hostOn(
      dir,
      JSON.stringify({
        inputs: [{ id: 'db-password', type: 'promptString', description: 'Database password', password: true }],
        mcpServers: {
          withSecret: { command: process.execPath, args: [envServer], env: { TOKEN: '${secret:GH_TOKEN}' } },
          withInput: { command: process.execPath, args: [envServer], env: { PASSWORD: '${input:db-password}' } },
        },
      }),
      { secrets },
    );
    await host.settled();
    const v = await views(host);
    expect(v.withSecret?.status).toBe('ready');
    const env = await host.api['tools:call']({ server: 'withSecret', tool: 'env', args: {} });
    expect(JSON.parse(env.content[0]?.type === 'text' ? env.content[0].text : '{}')).toMatchObject({ TOKEN: 'ghp_secret_value' });
    expect(v.withInput).toMatchObject({ status: 'error', needsInput: 'db-password' });
    expect(v.withInput?.error).toMatch(/needs the input "db-password"/);
    expect(JSON.stringify(await host.api['servers:list']())).not.toContain('ghp_secret_value');
    await host.api['secrets:set']('input.db-password', 'hunter2');
    await host.settled();
    const answered = await host.api['tools:call']({ server: 'withInput', tool: 'env', args: {} });
    expect(JSON.parse(answered.content[0]?.type === 'text' ? answered.content[0].text : '{}')).toMatchObject({ PASSWORD: 'hunter2' });
    expect(await host.api['secrets:list']()).toEqual(['GH_TOKEN', 'input.db-password']);
    await expect(host.api['secrets:set']('bad name!', 'x')).rejects.toMatchObject({ code: 'invalid-argument' });
  });

  it("a server's envFile (dotenv, relative to the config) adds to its env; its own env wins", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'server.env'), 'FROM_FILE=file-value\nBOTH=from-file\n');
    host = await hostOn(
      dir,
      JSON.stringify({ mcpServers: { s: { command: process.execPath, args: [envServer], envFile: 'server.env', env: { BOTH: 'from-env' } } } }),
    );
    await host.settled();
    const result = await host.api['tools:call']({ server: 's', tool: 'env', args: {} });
    expect(JSON.parse(result.content[0]?.type === 'text' ? result.content[0].text : '{}')).toMatchObject({ FROM_FILE: 'file-value', BOTH: 'from-env' });
    expect((await views(host)).s?.launch?.env).toContainEqual({ name: 'FROM_FILE', source: 'server-env' });
    // A missing envFile is that server's readable error.
    await host.api['servers:upsert']({ name: 't', entry: { command: process.execPath, args: [envServer], envFile: 'missing.env' } });
    await host.settled();
    const t = (await views(host)).t;
    expect(t?.status).toBe('error');
    expect(t?.error).toContain('missing.env');
  });

  it('the file secret store is 0600 and warns that it is not keychain-backed', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'mcp.json'), '{"mcpServers": {}}');
    host = await createHost({
      mode: 'headless',
      configPath: join(dir, 'mcp.json'),
      dataDir: dir,
      envDir: dir,
      settings: new StaticSettings(),
      runtime: nodeRuntime(),
    });
    await host.api['secrets:set']('API', 'v');
    expect(statSync(join(dir, 'secrets.json')).mode & 0o777).toBe(0o600);
    expect((await host.api['app:info']()).secrets).toEqual({
      backing: 'file',
      warning: expect.stringContaining('not in the OS keychain'),
      file: expect.stringMatching(/secrets/),
    });
  });
});

describe('import', () => {
  let host: Host | undefined;
  afterEach(async () => {
    await host?.dispose();
    host = undefined;
  });

  function writeJson(path: string, value: unknown): void {
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, JSON.stringify(value, null, 2));
  }

  it('reads each host format from its standard place, previews conflicts, and never touches the source', async () => {
    const home = tempDir();
    const hostEnv = { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), PATH: process.env.PATH };
    const claude = join(home, '.config', 'Claude', 'claude_desktop_config.json');
    writeJson(claude, {
      mcpServers: { fs: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'] }, calc: { command: 'node', args: ['other.js'] } },
      globalShortcut: 'x',
    });
    writeJson(join(home, '.cursor', 'mcp.json'), {
      mcpServers: { cur: { url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer sk-cursor-123' } } },
    });
    writeJson(join(home, '.config', 'Code', 'User', 'mcp.json'), {
      inputs: [{ id: 'k', type: 'promptString' }],
      servers: { vs: { type: 'stdio', command: 'uvx', args: ['x'], env: { API_KEY: '${input:k}' } }, vsHttp: { type: 'http', url: 'http://127.0.0.1:9/mcp' } },
    });
    writeJson(join(home, '.config', 'Code', 'User', 'globalStorage', 'saoudrizwan.claude-dev', 'settings', 'cline_mcp_settings.json'), {
      mcpServers: { cl: { command: 'node', args: ['c.js'], disabled: true, autoApprove: ['read'] } },
    });
    writeJson(join(home, '.codeium', 'windsurf', 'mcp_config.json'), { mcpServers: { wind: { serverUrl: 'http://127.0.0.1:9/sse' } } });
    const dir = tempDir();
    host = await hostOn(dir, JSON.stringify({ mcpServers: { calc: { command: 'node', args: ['calc.js'], disabled: true } } }), { hostEnv });
    const sourceBefore = readFileSync(claude, 'utf8');

    const preview = await host.api['config:import-preview']({ source: 'claude' });
    expect(preview.file).toBe(claude);
    expect(preview.servers.map((s) => [s.name, s.status])).toEqual([
      ['fs', 'new'],
      ['calc', 'conflict'],
    ]);
    expect((await host.api['config:import-preview']({ source: 'vscode' })).servers.map((s) => [s.name, s.entry.type])).toEqual([
      ['vs', 'stdio'],
      ['vsHttp', 'http'],
    ]);
    expect((await host.api['config:import-preview']({ source: 'cline' })).servers[0]?.entry).toMatchObject({ disabled: true, autoApprove: ['read'] });
    expect((await host.api['config:import-preview']({ source: 'windsurf' })).servers[0]?.entry).toEqual({ url: 'http://127.0.0.1:9/sse' });
    const cursor = await host.api['config:import-preview']({ source: 'cursor' });
    expect(cursor.servers[0]?.secretKeys).toEqual(['headers.Authorization']);

    // Without overwrite, the conflict is skipped and says why; the new one is added.
    const result = await host.api['config:import-apply']({ source: 'claude', names: ['fs', 'calc'] });
    expect(result).toEqual({
      added: ['fs'],
      replaced: [],
      skipped: [{ name: 'calc', reason: 'a different server of that name exists (not overwritten)', reasonInfo: { code: 'import-conflict' } }],
      secretsStored: [],
    });
    expect(readFileSync(claude, 'utf8')).toBe(sourceBefore);
    const config = JSON.parse(readFileSync(join(dir, 'mcp.json'), 'utf8')) as { mcpServers: Record<string, { args?: string[] }> };
    expect(config.mcpServers.calc?.args).toEqual(['calc.js']);
    expect(config.mcpServers.fs?.args).toEqual(['-y', '@modelcontextprotocol/server-filesystem', '/tmp']);
    // With overwrite confirmed it replaces.
    expect((await host.api['config:import-apply']({ source: 'claude', names: ['calc'], overwrite: ['calc'] })).replaced).toEqual(['calc']);
    // Moving literal secrets leaves a reference behind and stores the credential.
    const moved = await host.api['config:import-apply']({ source: 'cursor', names: ['cur'], moveSecrets: true });
    expect(moved.secretsStored).toEqual(['cur_Authorization']);
    const after = JSON.parse(readFileSync(join(dir, 'mcp.json'), 'utf8')) as { mcpServers: Record<string, { headers?: Record<string, string> }> };
    expect(after.mcpServers.cur?.headers).toEqual({ Authorization: 'Bearer ${secret:cur_Authorization}' });
    expect(readFileSync(join(dir, 'mcp.json'), 'utf8')).not.toContain('sk-cursor-123');
    expect(host.secrets.get('cur_Authorization')).toBe('sk-cursor-123');
    await expect(host.api['config:import-preview']({ source: join(home, 'missing.json') })).rejects.toThrow(/does not exist/);
    // The MCP Inspector's mcp.json (any path): `type` per entry, stdio and remote.
    const inspector = join(home, 'inspector', 'mcp.json');
    writeJson(inspector, {
      mcpServers: {
        'everything-stdio': { type: 'stdio', command: 'npx', args: ['@modelcontextprotocol/server-everything'] },
        'everything-http': { type: 'streamable-http', url: 'http://127.0.0.1:9/mcp' },
      },
    });
    const fromInspector = await host.api['config:import-preview']({ source: inspector });
    expect(fromInspector.servers.map((c) => [c.name, c.status, c.entry.type, c.invalid])).toEqual([
      ['everything-stdio', 'new', 'stdio', undefined],
      ['everything-http', 'new', 'streamable-http', undefined],
    ]);
  });
});
