import { chmodSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, parseServersConfig } from './parse';
import { ConfigStore, hashText, setAt } from './store';
import { tempDir, waitFor } from '../../test-support/processes';

const userFile = `// My MCP servers — hand-edited, keep my comments!
{
\t"$schema": "./mcp.schema.json",
\t"mcpServers": {
\t\t/* the calculator */
\t\t"calc": {"command": "node", "args": ["calc.js"]},   // inline comment
\t\t"github": {
\t\t\t"command": "npx",
\t\t\t"args": ["-y", "gh-server",],
\t\t\t"env": {"TOKEN": "\${env:GITHUB_TOKEN}"},
\t\t\t"myOwnKey": {"kept": true},
\t\t},
\t},
\t"zzz-unknown-top-level": 1,
}
`;

function storeWith(text: string): { store: ConfigStore; file: string; dir: string } {
  const dir = tempDir();
  const file = join(dir, 'mcp.json');
  writeFileSync(file, text);
  return { store: new ConfigStore(file), file, dir };
}

/** The edited text equals the original outside one span: common prefix + common suffix cover the rest. */
function outsideSpanUnchanged(before: string, after: string, span: string): void {
  let prefix = 0;
  while (prefix < before.length && before[prefix] === after[prefix]) prefix++;
  let suffix = 0;
  while (suffix < before.length - prefix && before[before.length - 1 - suffix] === after[after.length - 1 - suffix]) suffix++;
  const changed = after.slice(prefix, after.length - suffix);
  expect(changed.replace(/\s/g, '')).toContain(span);
  expect(before.slice(0, prefix) + before.slice(before.length - suffix)).toBe(after.slice(0, prefix) + after.slice(after.length - suffix));
}

describe('ConfigStore edits', () => {
  let store: ConfigStore | undefined;
  afterEach(async () => {
    await store?.dispose();
    store = undefined;
  });

  it('keeps comments, formatting, key order and unknown keys byte-for-byte outside the edited span', async () => {
    const made = storeWith(userFile);
    store = made.store;
    await store.update(setAt(['mcpServers', 'calc', 'disabled'], true), 'disable calc');
    const after = readFileSync(made.file, 'utf8');
    outsideSpanUnchanged(userFile, after, '"disabled":true');
    expect(after).toContain('// My MCP servers — hand-edited, keep my comments!');
    expect(after).toContain('"myOwnKey": {"kept": true}');
    expect(parseServersConfig(after, made.file).mcpServers.calc?.disabled).toBe(true);
    // Adding a server: the rest of the file is untouched, the new entry uses the file's tab indentation.
    const before = after;
    await store.update(setAt(['mcpServers', 'memory'], { command: 'npx', args: ['-y', 'server-memory'] }), 'add memory');
    const added = readFileSync(made.file, 'utf8');
    outsideSpanUnchanged(before, added, '"memory":{"command":"npx","args":["-y","server-memory"]}');
    expect(added).toMatch(/\n\t\t"memory": \{\n\t\t\t"command": "npx",/);
    // Removing it restores the earlier text exactly.
    await store.update(setAt(['mcpServers', 'memory'], undefined), 'remove memory');
    expect(readFileSync(made.file, 'utf8').replace(/,(\s*)}/g, '$1}')).toBe(before.replace(/,(\s*)}/g, '$1}'));
  });

  it('keeps one backup of the previous text, and writes atomically (no temp files left)', async () => {
    const made = storeWith(userFile);
    chmodSync(made.file, 0o600);
    store = made.store;
    await store.update(setAt(['mcpServers', 'calc', 'args'], ['calc.js', '--debug']), 'edit calc');
    expect(readFileSync(`${made.file}.bak`, 'utf8')).toBe(userFile);
    // The backup is as private as the file it copies.
    expect(statSync(`${made.file}.bak`).mode & 0o777).toBe(0o600);
    expect(statSync(made.file).mode & 0o777).toBe(0o600);
    const second = readFileSync(made.file, 'utf8');
    await store.update(setAt(['mcpServers', 'calc', 'disabled'], true), 'disable calc');
    expect(readFileSync(`${made.file}.bak`, 'utf8')).toBe(second);
    expect(readdirSync(made.dir).sort()).toEqual(['mcp.json', 'mcp.json.bak']);
  });

  it('an external edit made since our last read is kept, and ours is applied on top of it', async () => {
    const made = storeWith(userFile);
    store = made.store;
    // Someone else edits the file behind the store's back (the store has not re-read it).
    const external = userFile.replace('"zzz-unknown-top-level": 1', '"zzz-unknown-top-level": 2');
    writeFileSync(made.file, external.replace('\t\t/* the calculator */', '\t\t"other": {"url": "http://127.0.0.1:1/mcp"},\n\t\t/* the calculator */'));
    await store.update(setAt(['mcpServers', 'calc', 'disabled'], true), 'disable calc');
    const final = parseServersConfig(readFileSync(made.file, 'utf8'), made.file) as Record<string, unknown> & ReturnType<typeof parseServersConfig>;
    expect(final.mcpServers.other).toEqual({ url: 'http://127.0.0.1:1/mcp' });
    expect(final.mcpServers.calc?.disabled).toBe(true);
    expect(final['zzz-unknown-top-level']).toBe(2);
  });

  it('never writes over a file it cannot read, and never writes an invalid result', async () => {
    const broken = userFile.replace('"args": ["calc.js"]', '"args": "calc.js"');
    const made = storeWith(broken);
    store = made.store;
    const mtime = statSync(made.file).mtimeMs;
    await expect(store.update(setAt(['mcpServers', 'x'], { command: 'y' }), 'add x')).rejects.toThrow(
      /Cannot add x: the config file has a problem \(.*mcp\.json:6:31: mcpServers\.calc\.args must be an array of strings, got a string \("calc\.js"\)\)\. Fix it first/,
    );
    expect(readFileSync(made.file, 'utf8')).toBe(broken);
    expect(statSync(made.file).mtimeMs).toBe(mtime);
    expect(readdirSync(made.dir)).toEqual(['mcp.json']);
    // A valid file, an edit that would break it: refused, nothing written.
    writeFileSync(made.file, userFile);
    await expect(store.update(setAt(['mcpServers', 'calc', 'args'], 'oops'), 'edit calc')).rejects.toThrow(/would not be a valid config.*Nothing was written/);
    expect(readFileSync(made.file, 'utf8')).toBe(userFile);
    expect(readdirSync(made.dir)).toEqual(['mcp.json']);
  });

  it('the raw editor save is refused when the file changed since it loaded, and when the text is invalid', async () => {
    const made = storeWith(userFile);
    store = made.store;
    const loaded = store.snapshot();
    writeFileSync(made.file, userFile.replace('calc.js', 'calc2.js'));
    await expect(store.saveText(userFile.replace('calc.js', 'mine.js'), loaded.hash)).rejects.toThrow(/changed on disk since the editor loaded it/);
    const fresh = store.refresh();
    await expect(store.saveText('{"mcpServers": {"a": {"command": 1}}}', fresh.hash)).rejects.toThrow(
      /mcp\.json:1:23: mcpServers\.a\.command must be a string/,
    );
    const saved = await store.saveText(userFile, fresh.hash);
    expect(saved.hash).toBe(hashText(userFile));
    expect(readFileSync(made.file, 'utf8')).toBe(userFile);
  });

  it('an edit made after the first read but before the watcher listens is not missed', async () => {
    const made = storeWith(userFile);
    store = made.store;
    const seen: number[] = [];
    store.onChanged((s) => seen.push(Object.keys(s.config.mcpServers).length));
    store.watch(); // chokidar loads and scans asynchronously: this write lands before it listens
    writeFileSync(made.file, '{"mcpServers": {"only": {"command": "x"}}}');
    await store.ready();
    expect(seen).toEqual([1]);
  });

  it('notices external edits, including saves by rename, within a second', async () => {
    const made = storeWith(userFile);
    store = made.store;
    store.watch();
    await store.ready();
    const seen: number[] = [];
    store.onChanged((s) => seen.push(Object.keys(s.config.mcpServers).length));
    writeFileSync(`${made.file}.tmp-editor`, '{"mcpServers": {"only": {"command": "x"}}}');
    renameSync(`${made.file}.tmp-editor`, made.file);
    await waitFor(() => seen.includes(1), 3000, 'the rename to be noticed');
    writeFileSync(made.file, '{"mcpServers": {"a": {"command": "x"}, "b": {"command": "y"}}}');
    await waitFor(() => seen.includes(2), 3000, 'the write to be noticed');
  });

  it('a listener that throws is reported; the edit and the other listeners go on; a disposed one hears nothing', async () => {
    const dir = tempDir();
    const file = join(dir, 'mcp.json');
    writeFileSync(file, userFile);
    const failures: unknown[] = [];
    store = new ConfigStore(file, { onListenerError: (error) => failures.push(error) });
    const seen: string[] = [];
    store.onChanged(() => {
      throw new Error('listener broke');
    });
    const gone = store.onChanged(() => seen.push('gone'));
    store.onChanged((s) => seen.push(Object.keys(s.config.mcpServers).join(',')));
    gone.dispose();
    await store.update(setAt(['mcpServers', 'calc'], undefined), 'remove calc');
    expect(seen).toEqual(['github']);
    expect(failures).toEqual([new Error('listener broke')]);
  });
});

describe('fuzzed invalid configs', () => {
  /** A small deterministic PRNG so failures reproduce. */
  function rng(seed: number): () => number {
    let s = seed;
    return () => {
      s = (s * 1103515245 + 12345) & 0x7fffffff;
      return s / 0x7fffffff;
    };
  }

  it('truncations and byte flips: never a crash, every error carries a line; the store never writes', async () => {
    const random = rng(42);
    const dir = tempDir();
    const file = join(dir, 'mcp.json');
    let errors = 0;
    for (let i = 0; i < 400; i++) {
      let text = userFile;
      if (i % 2 === 0) text = text.slice(0, Math.floor(random() * text.length));
      else {
        const at = Math.floor(random() * text.length);
        const chars = '{}[],:"\\/x0 \n';
        text = text.slice(0, at) + chars[Math.floor(random() * chars.length)] + text.slice(at + 1);
      }
      try {
        parseServersConfig(text, file);
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        const e = error as ConfigError;
        expect(e.line).toBeGreaterThanOrEqual(1);
        expect(e.line).toBeLessThanOrEqual(text.split('\n').length);
        expect(e.column).toBeGreaterThanOrEqual(1);
        expect(e.message).toMatch(/^.*mcp\.json:\d+:\d+: \S/);
        errors++;
        if (errors % 20 === 0) {
          writeFileSync(file, text);
          const store = new ConfigStore(file);
          await expect(store.update(setAt(['mcpServers', 'new'], { command: 'x' }), 'add')).rejects.toThrow(/Fix it first/);
          expect(readFileSync(file, 'utf8')).toBe(text);
          expect(readdirSync(dir)).toEqual(['mcp.json']);
          await store.dispose();
        }
      }
    }
    expect(errors).toBeGreaterThan(150);
  });

  it('a wrong type at every path is reported at that path', () => {
    const valid = {
      mcpServers: {
        s: { command: 'c', args: ['a'], env: { K: 'v' }, cwd: '.', disabled: false, timeout: 5, envFile: '.env', autoApprove: ['t'] },
        r: { url: 'http://h/mcp', headers: { H: 'v' }, type: 'http' },
      },
    };
    const paths: Array<[string[], unknown]> = [];
    for (const [server, entry] of Object.entries(valid.mcpServers)) {
      for (const [key, value] of Object.entries(entry)) {
        paths.push([[server, key], typeof value === 'string' ? 42 : 'wrong']);
        if (typeof value === 'object' && value !== null) {
          for (const inner of Object.keys(value)) paths.push([[server, key, inner], { no: 1 }]);
        }
      }
    }
    expect(paths.length).toBe(15);
    for (const [path, bad] of paths) {
      const copy = structuredClone(valid) as Record<string, unknown>;
      let cursor = copy.mcpServers as Record<string, unknown>;
      for (const key of path.slice(0, -1)) cursor = cursor[key] as Record<string, unknown>;
      cursor[path[path.length - 1] ?? ''] = bad;
      const text = JSON.stringify(copy, null, 2);
      let caught: unknown;
      try {
        parseServersConfig(text, 'f.json');
      } catch (error) {
        caught = error;
      }
      const label = `mcpServers${path.map((k) => (/^\d+$/.test(k) ? `[${k}]` : `.${k}`)).join('')}`;
      expect(caught, `path ${label}`).toBeInstanceOf(ConfigError);
      expect((caught as ConfigError).detail.startsWith(`${label} `), `${(caught as ConfigError).detail} names ${label}`).toBe(true);
      expect((caught as ConfigError).line).toBeGreaterThan(1);
    }
  });
});
