/*
 * Starting the app under test, for the QA kit and the project's own e2e fixture: a headless host (`switchboard serve`,
 * from the package's bin or from source) whose first stdout line says where it is, or the desktop app through
 * Playwright's Electron launcher. Stopping is "stop first, judge after": the caller checks the exit and the leftovers
 * once nothing it started can still be running because of a failed check.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { _electron, type ElectronApplication, type Page } from '@playwright/test';
import { descendantsOf, killProcesses, type ProcessInfo } from './processes';

export interface HostExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface StoppedHost {
  /** How it exited after SIGTERM; undefined when it did not within the time given and was killed. */
  exit: HostExit | undefined;
  /** What it had started, seen just before it was asked to stop: for the leftover check. */
  tree: ProcessInfo[];
}

export interface HeadlessHost {
  child: ChildProcess;
  /** Its first stdout line (the URL, or serve --json's document). */
  firstLine: string;
  /** Everything it wrote, stdout and stderr. */
  output(): string;
  /** SIGTERM, then up to `timeoutMs` for it to exit (else SIGKILL to it and its tree). Once: later calls share it. */
  stop(timeoutMs?: number): Promise<StoppedHost>;
}

/** Hosts this process started and has not seen exit: killed if it goes away mid-test. */
const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

/** Starts `node ARGS…` and waits for its first stdout line; on failure it is ended and the error carries its output. */
export async function startHeadlessHost(args: readonly string[], options: { env: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number }): Promise<HeadlessHost> {
  const child = spawn(process.execPath, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(child);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<HostExit>((resolve) =>
    child.once('exit', (code, signal) => {
      live.delete(child);
      resolve({ code, signal });
    }),
  );
  let line: string;
  try {
    line = await firstLine(child, options.timeoutMs ?? 90_000);
  } catch (error) {
    const tree = child.pid === undefined ? [] : descendantsOf(child.pid);
    child.kill('SIGKILL');
    killProcesses(tree);
    await exited;
    throw new Error(`switchboard serve did not start: ${error instanceof Error ? error.message : String(error)}\n--- its output ---\n${output}`);
  }
  let stopped: Promise<StoppedHost> | undefined;
  return {
    child,
    firstLine: line,
    output: () => output,
    stop: (timeoutMs = 20_000) =>
      (stopped ??= (async () => {
        let tree: ProcessInfo[] = [];
        try {
          tree = child.pid === undefined ? [] : descendantsOf(child.pid);
        } finally {
          child.kill('SIGTERM');
        }
        const exit = await Promise.race([exited, sleep(timeoutMs).then(() => undefined)]);
        if (exit === undefined) {
          child.kill('SIGKILL');
          killProcesses(tree);
        }
        return { exit, tree };
      })()),
  };
}

export interface DesktopApp {
  app: ElectronApplication;
  /** Its first window. */
  page: Page;
  output(): string;
  /**
   * Closes the app (up to `timeoutMs`, else SIGKILL to it and its tree); `closed: false` when it had to be killed.
   * Once: later calls share it.
   */
  stop(timeoutMs?: number): Promise<{ closed: boolean; tree: ProcessInfo[] }>;
}

/**
 * Starts the desktop app with Playwright's Electron launcher: `executablePath` a packaged build (its QA flavour:
 * the launcher needs the `--inspect` fuse on), or an Electron binary with the built main file first in `args`
 * (without `executablePath`: the `electron` package Playwright itself resolves).
 */
export async function launchDesktopApp(options: {
  executablePath?: string;
  args: readonly string[];
  env: NodeJS.ProcessEnv;
  cwd?: string;
}): Promise<DesktopApp> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(options.env)) if (value !== undefined) env[key] = value;
  const app = await _electron.launch({
    args: [...options.args],
    env,
    ...(options.executablePath ? { executablePath: options.executablePath } : {}),
    ...(options.cwd ? { cwd: options.cwd } : {}),
  });
  let output = '';
  app.process().stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  app.process().stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const page = await app.firstWindow();
  let stopped: Promise<{ closed: boolean; tree: ProcessInfo[] }> | undefined;
  return {
    app,
    page,
    output: () => output,
    stop: (timeoutMs = 20_000) =>
      (stopped ??= (async () => {
        const pid = app.process().pid;
        const tree = pid === undefined ? [] : descendantsOf(pid);
        const closed = await Promise.race([app.close().then(() => true), sleep(timeoutMs).then(() => false)]);
        if (!closed) {
          app.process().kill('SIGKILL');
          killProcesses(tree);
        }
        return { closed, tree };
      })()),
  };
}

function firstLine(child: ChildProcess, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    const timer = setTimeout(() => finish(new Error(`no first line on stdout within ${timeoutMs} ms`)), timeoutMs);
    const onData = (chunk: Buffer): void => {
      buffer += chunk.toString();
      const newline = buffer.indexOf('\n');
      if (newline >= 0) finish(undefined, buffer.slice(0, newline).trim());
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null): void => finish(new Error(`it exited (code ${code}, signal ${signal})`));
    const finish = (error?: Error, line?: string): void => {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolve(line ?? '');
    };
    child.stdout?.on('data', onData);
    child.once('exit', onExit);
  });
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
