import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { ensurePrivateDir, writeFileAtomicSync } from '../core/support/data-files';
import { messageOf } from '../core/errors';
import { startHeadless, type HeadlessOptions, type HeadlessServer } from './server';

/*
 * `serve` remembers its address so a tab left open reconnects after a restart: the port always (when it is free
 * again), the token only when the person opted in (`--keep-token`; the token is a key to a program launcher, so
 * it is kept 0600 in the data folder and dropped as soon as a run does not ask to keep it).
 */

const stateSchema = z.object({
  host: z.string().min(1),
  port: z.number().int().min(1).max(65_535),
  token: z.string().min(32).max(200).optional(),
});
export type ServeState = z.infer<typeof stateSchema>;

export const serveStateFile = (dataDir: string): string => join(dataDir, 'serve.json');

export function readServeState(dataDir: string): ServeState | undefined {
  try {
    const parsed = stateSchema.safeParse(JSON.parse(readFileSync(serveStateFile(dataDir), 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** serve.json could not be saved (a full disk, a read-only folder); the server that was started is stopped. */
export class ServeStateError extends Error {
  constructor(
    readonly file: string,
    readonly reason: string,
  ) {
    super(`cannot save ${file}: ${reason}`);
    this.name = 'ServeStateError';
  }
}

function writeServeState(dataDir: string, state: ServeState): void {
  const file = serveStateFile(dataDir);
  try {
    ensurePrivateDir(dataDir);
    // A fresh 0600 file renamed over the old one: a failed write (ENOSPC) leaves the last good state, not half a file.
    writeFileAtomicSync(file, `${JSON.stringify(state)}\n`);
  } catch (error) {
    throw new ServeStateError(file, messageOf(error));
  }
}

export interface RememberedServeOptions extends Omit<HeadlessOptions, 'port' | 'token'> {
  dataDir: string;
  /** `--port N`: exactly this port (never another); undefined: the remembered one when free, else a new one. */
  port?: number;
  /** `--keep-token`: reuse (or start keeping) the token, so open tabs reconnect without a new URL. */
  keepToken: boolean;
}

export interface RememberedServe {
  server: HeadlessServer;
  /** The remembered port was taken by something else: a new one was chosen (open tabs must use the new URL). */
  portChanged: boolean;
  /** The token is the one open tabs already have. */
  tokenKept: boolean;
}

function isAddressInUse(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'EADDRINUSE';
}

/** Starts the headless server on the remembered port (and token, when kept) and remembers what it got. */
export async function startRemembered(options: RememberedServeOptions): Promise<RememberedServe> {
  const { dataDir, keepToken, port: explicitPort, ...rest } = options;
  const bindHost = rest.host ?? '127.0.0.1';
  const previous = readServeState(dataDir);
  const same = previous?.host === bindHost ? previous : undefined;
  const token = keepToken ? same?.token : undefined;
  const start = (port: number): Promise<HeadlessServer> => startHeadless({ ...rest, port, ...(token !== undefined ? { token } : {}) });
  let server: HeadlessServer;
  let portChanged = false;
  if (explicitPort !== undefined || same === undefined) {
    server = await start(explicitPort ?? 0);
  } else {
    try {
      server = await start(same.port);
    } catch (error) {
      if (!isAddressInUse(error)) throw error;
      server = await start(0);
      portChanged = true;
    }
  }
  try {
    writeServeState(dataDir, { host: bindHost, port: server.port, ...(keepToken ? { token: server.token } : {}) });
  } catch (error) {
    await server.dispose();
    throw error;
  }
  return { server, portChanged, tokenKept: token !== undefined && token === server.token };
}
