import { describe, expect, it } from 'vitest';
import {
  emptyForm,
  entryFromForm,
  formFromEntry,
  looksSecret,
  newRowId,
  rootProblem,
  secretReference,
  splitCommandField,
  suggestSecretName,
} from './entry-form';

const row = (value: string) => ({ id: newRowId(), value });
const pair = (key: string, value: string) => ({ id: newRowId(), key, value });

describe('entryFromForm', () => {
  it('builds a stdio entry, dropping empty rows and empty optional fields', () => {
    const form = {
      ...emptyForm(),
      name: ' calc ',
      command: ' node ',
      args: [row('calc.mjs'), row(''), row('--debug')],
      env: [pair('CALC_PRECISION', '8'), pair('', '')],
      timeout: '5000',
    };
    expect(entryFromForm(form, undefined, [])).toEqual({
      ok: true,
      name: 'calc',
      entry: { command: 'node', args: ['calc.mjs', '--debug'], env: { CALC_PRECISION: '8' }, timeout: 5000 },
    });
  });

  it('builds a remote entry with the transport as `type` and headers', () => {
    const form = {
      ...emptyForm(),
      name: 'r',
      kind: 'remote' as const,
      url: 'https://x.example/mcp',
      transport: 'sse' as const,
      headers: [pair('Authorization', 'Bearer ${secret:r_tok}')],
      disabled: true,
    };
    expect(entryFromForm(form, undefined, [])).toEqual({
      ok: true,
      name: 'r',
      entry: { url: 'https://x.example/mcp', headers: { Authorization: 'Bearer ${secret:r_tok}' }, type: 'sse', disabled: true },
    });
  });

  it('keeps keys the form does not manage, and streamable-http when http is still chosen', () => {
    const original = { url: 'http://a/mcp', type: 'streamable-http', autoApprove: ['x'], 'x-other-host': { a: 1 } };
    const form = formFromEntry('a', original);
    expect(form).toMatchObject({ kind: 'remote', transport: 'http', url: 'http://a/mcp' });
    const result = entryFromForm(form, original, []);
    expect(result).toEqual({ ok: true, name: 'a', entry: { url: 'http://a/mcp', type: 'streamable-http', autoApprove: ['x'], 'x-other-host': { a: 1 } } });
  });

  it('round-trips a stdio entry through the form unchanged', () => {
    const original = { command: 'npx', args: ['-y', 'srv'], env: { TOKEN: '${env:T}' }, cwd: 'sub', timeout: 1000, disabled: true, envFile: '.env' };
    expect(entryFromForm(formFromEntry('s', original), original, [])).toEqual({ ok: true, name: 's', entry: original });
  });

  it('reports every problem at its field', () => {
    const bad = { ...emptyForm(), name: 'taken', command: '', env: [pair('', 'v')], timeout: '1.5' };
    expect(entryFromForm(bad, undefined, ['taken'])).toEqual({
      ok: false,
      errors: {
        name: expect.stringContaining('already exists') as unknown,
        command: expect.any(String) as unknown,
        env: expect.stringContaining('needs a name') as unknown,
        timeout: expect.any(String) as unknown,
      },
    });
    const remote = { ...emptyForm(), name: 'r', kind: 'remote' as const, url: 'ftp://x', headers: [pair('A', '1'), pair('A', '2')] };
    expect(entryFromForm(remote, undefined, [])).toEqual({
      ok: false,
      errors: { url: expect.any(String) as unknown, headers: expect.stringContaining('twice') as unknown },
    });
  });
});

describe('secrets in the form', () => {
  it('spots literal credentials but not references', () => {
    expect(looksSecret('GITHUB_TOKEN', 'ghp_abc')).toBe(true);
    expect(looksSecret('Authorization', 'Bearer x')).toBe(true);
    expect(looksSecret('GITHUB_TOKEN', '${secret:gh}')).toBe(false);
    expect(looksSecret('GITHUB_TOKEN', '')).toBe(false);
    expect(looksSecret('CALC_PRECISION', '8')).toBe(false);
  });

  it('names secrets like the importer and keeps a Bearer prefix in the config', () => {
    expect(suggestSecretName('my server', 'API KEY')).toBe('my_server_API_KEY');
    expect(suggestSecretName('1st', 'K')).toBe('_1st_K');
    expect(secretReference('Bearer abc', 's')).toEqual({ reference: 'Bearer ${secret:s}', secret: 'abc' });
    expect(secretReference('abc', 's')).toEqual({ reference: '${secret:s}', secret: 'abc' });
  });
});

describe('roots in the form', () => {
  it('round-trips roots (paths and file:// URIs), dropping empty rows', () => {
    const original = { command: 'node', args: ['s.mjs'], roots: ['./data', '/srv/shared', 'file:///home/me/work'] };
    const form = formFromEntry('s', original);
    expect(form.roots.map((r) => r.value)).toEqual(original.roots);
    expect(entryFromForm({ ...form, roots: [...form.roots, row('  ')] }, original, [])).toEqual({ ok: true, name: 's', entry: original });
    // Removing every root removes the key (the settings' default roots apply).
    expect(entryFromForm({ ...form, roots: [] }, original, [])).toEqual({ ok: true, name: 's', entry: { command: 'node', args: ['s.mjs'] } });
  });

  it('remote servers get roots too', () => {
    const form = { ...emptyForm(), name: 'r', kind: 'remote' as const, url: 'https://x.example/mcp', roots: [row('/data')] };
    expect(entryFromForm(form, undefined, [])).toEqual({ ok: true, name: 'r', entry: { url: 'https://x.example/mcp', roots: ['/data'] } });
  });

  it('refuses a root that is not a folder', () => {
    const form = { ...emptyForm(), name: 's', command: 'node', roots: [row('/ok'), row('https://example.com/x')] };
    expect(entryFromForm(form, undefined, [])).toEqual({ ok: false, errors: { roots: expect.stringContaining('not a folder') as unknown } });
    expect(rootProblem('C:\\work')).toBeUndefined();
    expect(rootProblem('relative/dir')).toBeUndefined();
    expect(rootProblem('file:///tmp')).toBeUndefined();
  });
});

describe('sampling policy in the form', () => {
  it('reads and writes mode and perMinute; the default (ask, no limit) writes nothing', () => {
    const original = { command: 'node', sampling: { mode: 'never', perMinute: 5 } };
    const form = formFromEntry('s', original);
    expect(form).toMatchObject({ samplingMode: 'never', samplingPerMinute: '5' });
    expect(entryFromForm(form, original, [])).toEqual({ ok: true, name: 's', entry: original });
    expect(entryFromForm({ ...form, samplingMode: 'ask', samplingPerMinute: '' }, original, [])).toEqual({ ok: true, name: 's', entry: { command: 'node' } });
    expect(entryFromForm({ ...emptyForm(), name: 'n', command: 'node', samplingMode: 'allow' }, undefined, [])).toEqual({
      ok: true,
      name: 'n',
      entry: { command: 'node', sampling: { mode: 'allow' } },
    });
  });

  it('refuses a rate that is not a whole number above 0', () => {
    expect(entryFromForm({ ...emptyForm(), name: 'n', command: 'node', samplingPerMinute: '0.5' }, undefined, [])).toEqual({
      ok: false,
      errors: { sampling: expect.stringContaining('whole number') as unknown },
    });
  });
});

describe('sandbox in the form', () => {
  it.each([
    ['true', true],
    ['false', false],
    ['an object with paths and network', { allowRead: ['~/notes', './data'], allowWrite: ['/tmp/out'], network: false }],
    ['an object with only allowRead', { allowRead: ['./data'] }],
    ['an empty object', {}],
    ['an explicit network: true and an empty list', { allowWrite: [], network: true }],
  ])('round-trips sandbox: %s exactly', (_label, sandbox) => {
    const original = { command: 'node', args: ['s.mjs'], sandbox };
    expect(entryFromForm(formFromEntry('s', original), original, [])).toEqual({ ok: true, name: 's', entry: original });
  });

  it('reads the mode and the lists; no key is the settings default and writes none', () => {
    expect(formFromEntry('s', { command: 'node' })).toMatchObject({ sandboxMode: 'default', sandboxRead: [], sandboxWrite: [], sandboxNetwork: true });
    expect(formFromEntry('s', { command: 'node', sandbox: true })).toMatchObject({ sandboxMode: 'on' });
    expect(formFromEntry('s', { command: 'node', sandbox: false })).toMatchObject({ sandboxMode: 'off' });
    const custom = formFromEntry('s', { command: 'node', sandbox: { allowRead: ['a'], allowWrite: ['b'], network: false } });
    expect(custom).toMatchObject({ sandboxMode: 'custom', sandboxNetwork: false });
    expect(custom.sandboxRead.map((r) => r.value)).toEqual(['a']);
    expect(custom.sandboxWrite.map((r) => r.value)).toEqual(['b']);
    expect(entryFromForm({ ...custom, sandboxMode: 'default' }, { command: 'node', sandbox: true }, [])).toEqual({
      ok: true,
      name: 's',
      entry: { command: 'node' },
    });
  });

  it('writes what is chosen: on, off, custom with trimmed paths; network only when turned off', () => {
    const base = { ...emptyForm(), name: 'n', command: 'node' };
    expect(entryFromForm({ ...base, sandboxMode: 'on' }, undefined, [])).toEqual({ ok: true, name: 'n', entry: { command: 'node', sandbox: true } });
    expect(entryFromForm({ ...base, sandboxMode: 'off' }, undefined, [])).toEqual({ ok: true, name: 'n', entry: { command: 'node', sandbox: false } });
    expect(entryFromForm({ ...base, sandboxMode: 'custom', sandboxRead: [row(' ~/notes ')] }, undefined, [])).toEqual({
      ok: true,
      name: 'n',
      entry: { command: 'node', sandbox: { allowRead: ['~/notes'] } },
    });
    expect(entryFromForm({ ...base, sandboxMode: 'custom', sandboxWrite: [row('out')], sandboxNetwork: false }, undefined, [])).toEqual({
      ok: true,
      name: 'n',
      entry: { command: 'node', sandbox: { allowWrite: ['out'], network: false } },
    });
  });

  it('refuses an empty path or a URL at its list', () => {
    const base = { ...emptyForm(), name: 'n', command: 'node', sandboxMode: 'custom' as const };
    expect(entryFromForm({ ...base, sandboxRead: [row('/ok'), row('  ')] }, undefined, [])).toEqual({
      ok: false,
      errors: { sandboxRead: expect.stringContaining('Give a path') as unknown },
    });
    expect(entryFromForm({ ...base, sandboxWrite: [row('file:///tmp')] }, undefined, [])).toEqual({
      ok: false,
      errors: { sandboxWrite: expect.stringContaining('is a URL') as unknown },
    });
    // The lists only count for a custom sandbox.
    expect(entryFromForm({ ...base, sandboxMode: 'on', sandboxRead: [row('')] }, undefined, [])).toEqual({
      ok: true,
      name: 'n',
      entry: { command: 'node', sandbox: true },
    });
  });

  it('a remote server has no sandbox (it runs elsewhere)', () => {
    const original = { command: 'node', sandbox: true };
    const form = { ...formFromEntry('s', original), kind: 'remote' as const, url: 'https://x.example/mcp' };
    expect(entryFromForm(form, original, [])).toEqual({ ok: true, name: 's', entry: { url: 'https://x.example/mcp' } });
  });
});

describe('splitCommandField', () => {
  const values = (form: { command: string; args: Array<{ value: string }> }) => ({ command: form.command, args: form.args.map((a) => a.value) });

  it('splits a pasted command line into the program and its arguments, which then save as command + args', () => {
    const split = splitCommandField({ ...emptyForm(), name: 'everything', command: 'npx -y @modelcontextprotocol/server-everything' });
    expect(split?.moved).toBe(2);
    expect(values(split!.form)).toEqual({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] });
    expect(entryFromForm(split!.form, undefined, [])).toEqual({
      ok: true,
      name: 'everything',
      entry: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] },
    });
  });

  it('puts the words before the arguments already listed, or replaces them', () => {
    const form = { ...emptyForm(), command: 'node server.mjs --verbose', args: [row('--port=3')] };
    expect(values(splitCommandField(form)!.form)).toEqual({ command: 'node', args: ['server.mjs', '--verbose', '--port=3'] });
    expect(values(splitCommandField(form, true)!.form)).toEqual({ command: 'node', args: ['server.mjs', '--verbose'] });
  });

  it('keeps a quoted program path with spaces as one command, quotes removed, arguments kept', () => {
    const form = { ...emptyForm(), command: '"/Applications/My App/server"', args: [row('--x')] };
    expect(splitCommandField(form, true)).toEqual({ form: { ...form, command: '/Applications/My App/server' }, moved: 0 });
  });

  it('leaves one plain word, a blank field and an unclosed quote alone', () => {
    expect(splitCommandField({ ...emptyForm(), command: 'uvx' })).toBeUndefined();
    expect(splitCommandField({ ...emptyForm(), command: '' })).toBeUndefined();
    expect(splitCommandField({ ...emptyForm(), command: 'node "server.mjs' })).toBeUndefined();
  });
});

describe('protocol version in the form', () => {
  it('reads and writes the pin; auto (the default) writes nothing unless the file said it', () => {
    const original = { command: 'node', protocolVersion: '2025-11-25' };
    const form = formFromEntry('s', original);
    expect(form.protocolVersion).toBe('2025-11-25');
    expect(entryFromForm(form, original, [])).toEqual({ ok: true, name: 's', entry: original });
    expect(entryFromForm({ ...form, protocolVersion: 'auto' }, original, [])).toEqual({ ok: true, name: 's', entry: { command: 'node' } });
    const auto = { command: 'node', protocolVersion: 'auto' };
    expect(entryFromForm(formFromEntry('s', auto), auto, [])).toEqual({ ok: true, name: 's', entry: auto });
    expect(formFromEntry('s', { command: 'node' }).protocolVersion).toBe('auto');
    expect(entryFromForm({ ...emptyForm(), name: 'n', command: 'node', protocolVersion: '2026-07-28' }, undefined, [])).toEqual({
      ok: true,
      name: 'n',
      entry: { command: 'node', protocolVersion: '2026-07-28' },
    });
  });
});
