import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** True while a process with this pid exists (signal 0 probes without signalling). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 10_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

export function tempDir(prefix = 'switchboard-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** @modelcontextprotocol/server-everything's entry point (stdio by default; `streamableHttp` / `sse` as its argument). */
export const everythingEntry = join(process.cwd(), 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');

/** Ends `child` with SIGTERM and resolves once it has exited (at once if it already has); idempotent. */
export function stopChild(child: ChildProcess): () => Promise<void> {
  return () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Starts @modelcontextprotocol/server-everything in an HTTP mode on a free loopback port. */
export async function startEverything(mode: 'streamableHttp' | 'sse'): Promise<{ port: number; child: ChildProcess; stop(): Promise<void> }> {
  const port = await freePort();
  const child = spawn(process.execPath, [everythingEntry, mode], {
    env: { PATH: process.env.PATH ?? '', PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await waitFor(() => /listening|running on port/i.test(output), 15_000, `server-everything ${mode} to listen (stderr: ${output})`);
  return { port, child, stop: stopChild(child) };
}

/** Pids of live processes (zombies excluded) whose command line contains `tag` — tests mark theirs with a unique tag. */
export function pidsWith(tag: string): number[] {
  return execFileSync('ps', ['-eo', 'pid=,stat=,args='], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes(tag) && !line.includes('ps -eo'))
    .map((line) => line.trim().split(/\s+/))
    .filter(([, stat]) => !stat?.startsWith('Z'))
    .map(([pid]) => Number(pid));
}
