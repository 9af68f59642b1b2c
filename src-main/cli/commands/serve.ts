import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../core/support/paths';
import { cliT, errorLine } from '../i18n';
import { err, out, outJson } from '../output';
import type { CliCommand } from './command';

/**
 * `switchboard serve [--port N] [--host H] [--allow-remote] [--keep-token] [--wait-ready]`: the app in a browser, over
 * the headless bridge, until SIGINT or SIGTERM (its normal way to stop: exit 0). The first line on stdout is the URL
 * with its token; with --json, a JSON object (what a test harness starting it needs: see ServeReady).
 */
export const serve: CliCommand = {
  name: 'serve',
  options: ['waitReady'],
  // The app's face: it follows the file, finds the servers' programs as the desktop app does, asks before it starts an
  // unapproved command, answers servers in the UI, and starts (showing the error) with a broken config.
  host: {
    startServers: true,
    listen: true,
    watchConfig: true,
    loginShellPath: true,
    requireConsent: true,
    logToStderr: true,
    answers: 'app',
    stopOnSignal: false,
    withConfigError: true,
  },
  async run(host, args) {
    const address = args.host ?? '127.0.0.1';
    if (!isLoopback(address) && !args.allowRemote) {
      err(`switchboard: ${cliT('cli.loopbackOnly', { host: address })}`);
      return 2;
    }
    if (!isLoopback(address)) err(cliT('cli.remoteWarning', { host: address }));
    const rendererDir = process.env.SWITCHBOARD_UI_DIR || join(packageRoot(), 'out', 'renderer');
    if (!existsSync(join(rendererDir, 'index.html'))) {
      err(`switchboard: ${cliT('cli.uiNotBuilt', { dir: rendererDir })}`);
      return 2;
    }
    // Loaded only for serve (a chunk of the bundled CLI: the HTTP/WebSocket server).
    const { startRemembered, ServeStateError } = await import('../../headless/serve-state');
    // The port of the last run (when free) and, with --keep-token, its token: a tab left open reconnects.
    let started: Awaited<ReturnType<typeof startRemembered>>;
    // The page may frame only the apps' sandbox origin, known once that server is up (it needs the page's port).
    const frameSources: string[] = [];
    try {
      started = await startRemembered({
        api: host.api,
        frameSources: () => frameSources,
        rendererDir,
        dataDir: host.dataDir,
        keepToken: args.keepToken,
        ...(args.host !== undefined ? { host: args.host } : {}),
        ...(args.port !== undefined ? { port: args.port } : {}),
      });
    } catch (error) {
      if (!(error instanceof ServeStateError)) throw error;
      // A full disk or a read-only data folder: one line that says where and what, not a stack trace.
      err(`switchboard: ${cliT('cli.serveStateWrite', { file: error.file, error: error.reason })}`);
      return 1;
    }
    const { server, portChanged, tokenKept } = started;
    // MCP Apps' frames: on a port (an origin) of their own, with a token of their own.
    const { startSandboxServer } = await import('../../headless/sandbox');
    const uiHost = address.includes(':') ? `[${address}]` : address;
    const uiOrigins = [...new Set([uiHost, '127.0.0.1', 'localhost', '[::1]'])].map((h) => `http://${h}:${server.port}`);
    const sandbox = await startSandboxServer({ page: (frameId) => host.apps.proxyResponse(frameId), parentOrigins: uiOrigins, host: address });
    frameSources.push(sandbox.origin);
    host.apps.useSandbox(sandbox);
    // --wait-ready: the line is the harness's signal that the page will show every server settled, so it comes after.
    if (args.waitReady) await host.settled();
    if (args.json) {
      const ready: ServeReady = { url: server.url, pid: process.pid, configPath: host.configPath, dataDir: host.dataDir, sandboxOrigin: sandbox.origin };
      outJson(ready, 0);
    } else out(server.url);
    err(cliT('cli.headlessReady', { config: host.configPath }));
    if (portChanged) err(cliT('cliOut.serve.portChanged'));
    else if (tokenKept) err(cliT('cliOut.serve.tokenKept'));
    const info = await host.api['app:info']();
    if (info.configError) err(errorLine(info.configError));
    await new Promise<void>((resolve) => {
      const done = (): void => resolve();
      process.once('SIGINT', done);
      process.once('SIGTERM', done);
    });
    host.apps.useSandbox(undefined);
    await Promise.all([server.dispose(), sandbox.dispose()]);
    return 0;
  },
};

/** serve --json: its first stdout line (one line of JSON), the contract of the QA kit (docs/testing.md). */
export interface ServeReady {
  /** The page, with its access token. */
  url: string;
  /** This process: the one to signal (SIGTERM) to stop it and every server it started. */
  pid: number;
  configPath: string;
  dataDir: string;
  /** The origin MCP Apps' frames are served from (a port of its own). */
  sandboxOrigin: string;
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}
