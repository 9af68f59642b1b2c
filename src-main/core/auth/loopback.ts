import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Disposable } from '../../../src-shared/lifecycle';

/** What the authorization server sent back to the redirect URI. */
export interface CallbackParams {
  params: URLSearchParams;
}

export class LoopbackError extends Error {}

export interface LoopbackOptions {
  /** The port to listen on; 0 (default) lets the OS choose. */
  port?: number;
  /** Closed after this many milliseconds without a redirect (default 5 minutes). */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export const defaultLoopbackTimeoutMs = 5 * 60_000;
const callbackPath = '/callback';

const page = (title: string, text: string): string =>
  `<!doctype html><meta charset="utf-8"><title>${title}</title><body style="font-family:system-ui;margin:3em"><h1>${title}</h1><p>${text}</p></body>`;

/**
 * The RFC 8252 loopback redirect: an HTTP listener on 127.0.0.1 (not `localhost`, whose resolution a person or a
 * proxy may change), on one port for the whole sign-in (registration and authorization name the same redirect URI),
 * that takes one redirect and closes — or closes after `timeoutMs` (5 minutes), or when the signal aborts.
 */
export class LoopbackListener implements Disposable {
  private settled = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly result: Promise<CallbackParams>;
  private resolve!: (value: CallbackParams) => void;
  private reject!: (error: Error) => void;
  private expectedState: string | undefined;

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {
    this.result = new Promise<CallbackParams>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    this.result.catch(() => undefined);
  }

  /** The redirect URI to register and to send with the authorization request. */
  get redirectUrl(): string {
    return `http://127.0.0.1:${this.port}${callbackPath}`;
  }

  static async open(options: LoopbackOptions = {}): Promise<LoopbackListener> {
    const server = createServer();
    const port = await new Promise<number>((resolve, reject) => {
      server.once('error', (error: NodeJS.ErrnoException) => {
        reject(
          new LoopbackError(
            error.code === 'EADDRINUSE'
              ? `Port ${options.port ?? 0} on 127.0.0.1 is in use, so the sign-in redirect cannot be received there. Close what uses it, or set another "oauth": {"redirectPort": N} (the client registration must allow it).`
              : `Cannot listen on 127.0.0.1 for the sign-in redirect: ${error.message}`,
          ),
        );
      });
      server.listen(options.port ?? 0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
    });
    const listener = new LoopbackListener(server, port);
    server.on('request', (req, res) => listener.handle(req.url ?? '/', req.method ?? 'GET', res));
    const timeoutMs = options.timeoutMs ?? defaultLoopbackTimeoutMs;
    listener.timer = setTimeout(
      () =>
        listener.fail(
          new LoopbackError(
            `No sign-in redirect arrived within ${Math.round(timeoutMs / 1000)} s; the listener on port ${port} is closed. Start the sign-in again.`,
          ),
        ),
      timeoutMs,
    );
    listener.timer.unref?.();
    if (options.signal) {
      const signal = options.signal;
      if (signal.aborted) listener.fail(new LoopbackError('The sign-in was cancelled.'));
      else signal.addEventListener('abort', () => listener.fail(new LoopbackError('The sign-in was cancelled.')), { once: true });
    }
    return listener;
  }

  /** The `state` the redirect must carry (a redirect with another one is refused, and the listener keeps waiting). */
  expectState(state: string | undefined): void {
    this.expectedState = state;
  }

  /** Resolves with the redirect's query parameters; rejects on timeout or cancel. The listener is closed either way. */
  wait(): Promise<CallbackParams> {
    return this.result;
  }

  private handle(rawUrl: string, method: string, res: import('node:http').ServerResponse): void {
    const url = new URL(rawUrl, 'http://127.0.0.1');
    if (method !== 'GET' || url.pathname !== callbackPath || this.settled) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    const params = url.searchParams;
    if (this.expectedState !== undefined && params.get('state') !== this.expectedState) {
      // Not the redirect of this sign-in (a stale tab, or a forged request): ignored, the real one may still come.
      res
        .writeHead(400, { 'content-type': 'text/html; charset=utf-8' })
        .end(
          page('Sign-in not accepted', 'This redirect does not belong to the sign-in Switchboard is waiting for. Start the sign-in again from Switchboard.'),
        );
      return;
    }
    const failed = params.has('error');
    res
      .writeHead(failed ? 400 : 200, { 'content-type': 'text/html; charset=utf-8', connection: 'close' })
      .end(
        failed
          ? page('Sign-in failed', 'The authorization server did not grant access. You can close this tab; Switchboard says why.')
          : page('Signed in', 'You can close this tab and return to Switchboard.'),
      );
    this.settled = true;
    this.resolve({ params });
    res.on('finish', () => this.close());
  }

  private fail(error: Error): void {
    if (this.settled) return;
    this.settled = true;
    this.reject(error);
    this.close();
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.settled) {
      this.settled = true;
      this.reject(new LoopbackError('The sign-in listener was closed.'));
    }
    this.server.close();
    this.server.closeAllConnections();
  }

  dispose(): void {
    this.close();
  }
}
