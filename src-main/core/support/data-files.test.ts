import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ensurePrivateDir, tidyDataDir, writeFileAtomicSync } from './data-files';
import { createHost, type Host } from '../host';
import { FileSettings } from '../settings/file-store';
import { nodeRuntime } from '../config/runtime';
import { StaticSettings } from '../settings/store';
import { packBundle } from '../../test-support/bundle-fixture';
import { alive, tempDir } from '../../test-support/processes';

/*
 * The data folder holds whole command lines (era-cache.json), secrets, conversations, the audit log: every file
 * Switchboard creates there is 0600 and every folder 0700, files an older version left looser are tightened, and a
 * save killed with SIGKILL leaves no temp file behind once the next host has started.
 */

const modeOf = (path: string): number => statSync(path).mode & 0o777;

/** Every file and folder under `dir` (relative path → `folder 700`, `file 600` …). */
function modesUnder(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    out[path.slice(dir.length + 1)] = `${entry.isDirectory() ? 'folder' : 'file'} ${modeOf(path).toString(8)}`;
  }
  return out;
}

/** Each path whose mode is not 0700 (a folder) or 0600 (a file). */
const loose = (modes: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(modes).filter(([, mode]) => mode !== 'folder 700' && mode !== 'file 600'));

let host: Host | undefined;
afterEach(async () => {
  await host?.dispose();
  host = undefined;
});

describe('files in the data folder', () => {
  it('are created 0600 in 0700 folders, and looser ones from before are tightened', async () => {
    const dir = tempDir();
    // As an older version (or a umask of 022) left them: world-readable.
    chmodSync(dir, 0o755);
    writeFileSync(join(dir, 'era-cache.json'), '{}', { mode: 0o644 });
    writeFileSync(join(dir, 'chat-settings.json'), '{}', { mode: 0o644 });
    writeFileSync(join(dir, 'audit.jsonl'), '', { mode: 0o644 });
    mkdirSync(join(dir, 'conversations'), { mode: 0o755 });
    for (const file of ['era-cache.json', 'chat-settings.json', 'audit.jsonl']) chmodSync(join(dir, file), 0o644);
    chmodSync(join(dir, 'conversations'), 0o755);

    // The CLI's settings file (conf), created on first use.
    new FileSettings(dir);
    host = await createHost({
      mode: 'headless',
      dataDir: dir,
      envDir: dir,
      settings: new StaticSettings(),
      runtime: nodeRuntime(),
      hostEnv: { PATH: process.env.PATH },
    });
    await host.settled();
    expect((await host.api['servers:list']())[0]?.status).toBe('ready');
    await host.api['secrets:set']('MY_TOKEN', 'secret-value');
    await host.api['chat:update-settings']({ maxSteps: 5 });
    const conversation = host.chat.history.create('hello');
    await host.chat.history.save(conversation.id);
    host.chat.audit.append({ kind: 'call', source: 'cli', callId: 'c1', server: 'calculator', tool: 'add', outcome: 'ok' });
    // An edit through the app writes mcp.json and its backup.
    await host.api['servers:set-enabled']('calculator', false);
    await host.dispose();
    host = undefined;

    const modes = modesUnder(dir);
    const expected = [
      'mcp.json',
      'mcp.json.bak',
      'config.json',
      'era-cache.json',
      'secrets.json',
      'chat-settings.json',
      'audit.jsonl',
      join('conversations', `${conversation.id}.json`),
      join('logs', 'switchboard.log'),
    ];
    for (const file of expected) expect({ file, exists: file in modes }).toEqual({ file, exists: true });
    expect(loose(modes)).toEqual({});
    expect(modeOf(dir).toString(8)).toBe('700');
  });
});

describe('under umask 000', () => {
  it('every file Switchboard creates in the data folder is still 0600 and every folder 0700 (run/<pid>.json, bundles, the debug bundle included)', async () => {
    const before = process.umask(0);
    try {
      const dir = tempDir();
      host = await createHost({
        mode: 'headless',
        dataDir: dir,
        envDir: dir,
        settings: new StaticSettings(),
        runtime: nodeRuntime(),
        hostEnv: { PATH: process.env.PATH },
      });
      await host.settled();
      expect((await host.api['servers:list']())[0]?.status).toBe('ready');
      // The ledger of the running server, while it runs.
      const ledger = join(dir, 'run', `${process.pid}.json`);
      expect([modeOf(join(dir, 'run')), modeOf(ledger)].map((m) => m.toString(8))).toEqual(['700', '600']);
      await host.api['secrets:set']('MY_TOKEN', 'secret-value');
      const conversation = host.chat.history.create('hello');
      await host.chat.history.save(conversation.id);
      host.chat.audit.append({ kind: 'call', source: 'cli', callId: 'c1', server: 'calculator', tool: 'add', outcome: 'ok' });
      await host.api['servers:set-enabled']('calculator', false);
      await host.api['install:apply']({
        source: { kind: 'bundle', data: readFileSync(packBundle()).toString('base64'), fileName: 'greeter.mcpb' },
        values: { api_key: 'k-1' },
      });
      await host.api['debug:bundle']({});
      const modes = modesUnder(dir);
      await host.dispose();
      host = undefined;

      for (const file of [
        join('bundles', 'greeter', 'manifest.json'),
        join('bundles', 'greeter', 'server', 'index.mjs'),
        join('bundles', 'greeter.install.json'),
        'secrets.json',
        join('logs', 'switchboard.log'),
      ]) {
        expect({ file, exists: file in modes }).toEqual({ file, exists: true });
      }
      expect(Object.keys(modes).some((path) => path.startsWith(`debug${sep}switchboard-debug-`))).toBe(true);
      expect(loose(modes)).toEqual({});
      expect(modeOf(dir).toString(8)).toBe('700');
    } finally {
      process.umask(before);
    }
  });

  it('writeFileAtomicSync and ensurePrivateDir set the modes exactly, whatever the umask', () => {
    const before = process.umask(0o277);
    try {
      const dir = join(tempDir(), 'a', 'b');
      ensurePrivateDir(dir);
      writeFileAtomicSync(join(dir, 'f.json'), '{}');
      expect([modeOf(dir), modeOf(join(dir, 'f.json'))].map((m) => m.toString(8))).toEqual(['700', '600']);
      process.umask(0);
      writeFileAtomicSync(join(dir, 'c', 'g.json'), '{}');
      expect([modeOf(join(dir, 'c')), modeOf(join(dir, 'c', 'g.json'))].map((m) => m.toString(8))).toEqual(['700', '600']);
    } finally {
      process.umask(before);
    }
  });
});

/** Starts a real process that writes `files` (names with `<PID>` standing for its own pid), reports, then waits. */
async function writer(dir: string, files: string[]): Promise<{ pid: number; kill9(): Promise<void> }> {
  const script = `
    const { mkdirSync, writeFileSync } = require('node:fs');
    const { dirname, join } = require('node:path');
    for (const name of ${JSON.stringify(files)}) {
      const file = join(${JSON.stringify(dir)}, name.replaceAll('<PID>', String(process.pid)));
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, '{"half":');
    }
    process.stdout.write('written\\n');
    setInterval(() => {}, 1000);
  `;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('written')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`writer exited early (${String(code)})`)));
  });
  const pid = child.pid ?? 0;
  return {
    pid,
    kill9: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}

describe('a save killed with SIGKILL', () => {
  it('leaves no temp file behind once the next host has started; a live writer’s temp and other files stay', async () => {
    const dir = tempDir();
    const temps = [
      'era-cache.json.<PID>.tmp',
      join('conversations', '0b1c2d3e-aaaa-bbbb-cccc-000000000000.json.<PID>.tmp'),
      join('run', '<PID>.json.tmp'),
      'chat-settings.json.<PID>.tmp',
      'secrets.json.<PID>.tmp',
      'mcp.json.<PID>.tmp',
      'mcp.json.bak.<PID>.tmp',
    ];
    const killed = await writer(dir, temps);
    await killed.kill9();
    expect(alive(killed.pid)).toBe(false);
    // A writer that is still running (its save is in progress) keeps its temp file.
    const live = await writer(dir, ['era-cache.json.<PID>.tmp']);
    try {
      // conf (config.json) names its temp files by time, not pid: an old one is stray, a fresh one may be in use.
      const confStray = join(dir, 'config.json.tmp-1764500000abc123');
      const confFresh = join(dir, `config.json.tmp-${Date.now().toString().slice(-10)}def456`);
      writeFileSync(confStray, '{');
      writeFileSync(confFresh, '{');
      const twoMinutesAgo = new Date(Date.now() - 120_000);
      utimesSync(confStray, twoMinutesAgo, twoMinutesAgo);
      // Files that only look alike are not ours to delete.
      for (const other of ['mcp.json.20251201', 'notes.tmp', 'era-cache.json.backup']) writeFileSync(join(dir, other), 'keep');

      host = await createHost({
        mode: 'headless',
        dataDir: dir,
        envDir: dir,
        settings: new StaticSettings(),
        runtime: nodeRuntime(),
        hostEnv: { PATH: process.env.PATH },
        startServers: false,
      });
      for (const temp of temps) {
        const path = join(dir, temp.replaceAll('<PID>', String(killed.pid)));
        expect({ temp, exists: existsSync(path) }).toEqual({ temp, exists: false });
      }
      expect(existsSync(confStray)).toBe(false);
      expect(existsSync(confFresh)).toBe(true);
      expect(existsSync(join(dir, `era-cache.json.${live.pid}.tmp`))).toBe(true);
      for (const other of ['mcp.json.20251201', 'notes.tmp', 'era-cache.json.backup'])
        expect({ other, exists: existsSync(join(dir, other)) }).toEqual({ other, exists: true });
    } finally {
      await live.kill9();
    }
  });
});

describe('an install killed while it unpacked', () => {
  it('leaves no staged bundle folder once the next host has started; a fresh one (an unpack in progress) and installed bundles stay', () => {
    const dir = tempDir();
    const bundles = join(dir, 'bundles');
    const stray = join(bundles, '.unpack-0123456789ab');
    const fresh = join(bundles, '.unpack-ba9876543210');
    const installed = join(bundles, 'greeter');
    for (const folder of [stray, fresh, installed]) mkdirSync(join(folder, 'server'), { recursive: true });
    writeFileSync(join(stray, 'server', 'index.mjs'), '');
    const twoMinutesAgo = new Date(Date.now() - 120_000);
    utimesSync(stray, twoMinutesAgo, twoMinutesAgo);
    utimesSync(installed, twoMinutesAgo, twoMinutesAgo);

    expect(tidyDataDir(dir)).toContain(stray);
    expect(existsSync(stray)).toBe(false);
    expect(existsSync(fresh)).toBe(true);
    expect(existsSync(installed)).toBe(true);
  });
});
