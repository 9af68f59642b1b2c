import { z } from 'zod';
import { hostChannels } from '../../src-shared/host-schemas';
import type { Envelope, HostChannel, HostMethods } from '../../src-shared/host-api';
import { toHostError } from './errors';

/*
 * The one path every untrusted call takes, whichever face it came through (Electron IPC, the headless bridge):
 * is it a channel, do the arguments parse with its zod tuple, call, and wrap the outcome — a value or a HostError —
 * as an Envelope. Same checks and same error text both ways.
 */

export function isHostChannel(channel: unknown): channel is HostChannel {
  return typeof channel === 'string' && Object.hasOwn(hostChannels, channel);
}

export async function dispatch(api: HostMethods, channel: unknown, args: unknown, log: (line: string) => void = () => undefined): Promise<Envelope<unknown>> {
  if (!isHostChannel(channel)) {
    return { ok: false, error: { code: 'invalid-argument', message: `Unknown channel ${JSON.stringify(channel)}.`, data: { channel: String(channel) } } };
  }
  const parsed = hostChannels[channel].safeParse(args);
  if (!parsed.success) {
    return { ok: false, error: { code: 'invalid-argument', message: `Invalid arguments for ${channel}: ${z.prettifyError(parsed.error)}`, data: { channel } } };
  }
  try {
    // The parsed tuple is the schema's output (defaults applied), a valid input to the method.
    const method = api[channel] as (...a: unknown[]) => Promise<unknown>;
    const value = await method.apply(api, parsed.data as unknown[]);
    return { ok: true, value };
  } catch (error) {
    const hostError = toHostError(error);
    if (hostError.code === 'internal') log(`${channel} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return { ok: false, error: hostError };
  }
}
