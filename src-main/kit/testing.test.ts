import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../core/support/paths';
import { testServer, testServerNames, type TestServerEntry } from './testing';

interface Ran {
  code: number | null;
  stderr: string;
  /** The first JSON-RPC message the server wrote on stdout, if any. */
  answer: unknown;
}

/** Starts an `mcpServers` entry, sends `initialize` (the 2025 era every one of them answers), and ends it. */
function initialize(entry: TestServerEntry, { waitExitMs = 0 } = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(entry.command, entry.args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let answer: unknown;
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const newline = stdout.indexOf('\n');
      if (answer === undefined && newline >= 0) {
        answer = JSON.parse(stdout.slice(0, newline));
        if (waitExitMs === 0) child.stdin.end();
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, answer });
    });
    child.stdin.on('error', () => undefined);
    const init = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'kit-test', version: '1.0.0' } };
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: init })}\n`);
  });
}

const serverName = (answer: unknown): unknown =>
  typeof answer === 'object' && answer !== null && 'result' in answer ? (answer.result as { serverInfo?: { name?: unknown } }).serverInfo?.name : undefined;

describe('the test servers of switchboard/testing', () => {
  it('crashing writes its line to stderr and exits with its code, before answering anything', async () => {
    const ran = await initialize(testServer('crashing', { 'exit-code': 4, message: 'boom: no such database' }));
    expect(ran).toEqual({ code: 4, stderr: 'boom: no such database\n', answer: undefined });
  });

  it('crashing with --after-ready-ms answers the handshake, then dies', async () => {
    const ran = await initialize(testServer('crashing', { 'after-ready-ms': 50, 'exit-code': 5 }), { waitExitMs: 1 });
    expect(serverName(ran.answer)).toBe('crashing');
    expect(ran.code).toBe(5);
    expect(ran.stderr).toContain('crashing: fatal error, exiting');
  });

  it.each(testServerNames.filter((name) => name !== 'crashing'))('%s answers initialize from source', async (name) => {
    const ran = await initialize(testServer(name, name === 'many-tools' ? { tools: 20 } : {}));
    expect(serverName(ran.answer), ran.stderr).toEqual(expect.any(String));
  });

  const built = join(packageRoot(), 'out', 'kit', 'test-servers');
  it.skipIf(!existsSync(built)).each(testServerNames.filter((name) => name !== 'crashing'))('%s answers initialize as bundled in out/kit', async (name) => {
    const ran = await initialize({ command: process.execPath, args: [join(built, `${name}.mjs`)] });
    expect(serverName(ran.answer), ran.stderr).toEqual(expect.any(String));
  });
});
