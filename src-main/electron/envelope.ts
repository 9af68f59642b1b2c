import type { Envelope, HostChannel, HostMethods, HostResults } from '../../src-shared/host-api';
import { dispatch } from '../core/dispatch';

/*
 * The IPC gateway's Electron-free half, kept apart from ipc.ts so it runs under plain Node (tests) — importing
 * `electron` there would try to download its binary. The work is the core's one dispatcher (core/dispatch.ts),
 * which the headless bridge uses too.
 */

export { toHostError } from '../core/errors';

/** Parse `raw` with the channel's zod tuple, call the host, and wrap the outcome as an Envelope. */
export async function invokeChannel<C extends HostChannel>(
  api: HostMethods,
  channel: C,
  raw: unknown[],
  log: (line: string) => void = () => {},
): Promise<Envelope<HostResults[C]>> {
  return (await dispatch(api, channel, raw, log)) as Envelope<HostResults[C]>;
}
