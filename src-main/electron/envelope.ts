import { z } from 'zod';
import { hostChannels } from '../../src-shared/host-schemas';
import {
  type Envelope,
  type HostArgs,
  type HostChannel,
  type HostError,
  type HostErrorCode,
  type HostMethods,
  type HostResults,
} from '../../src-shared/host-api';

/*
 * The IPC gateway's Electron-free half: argument parsing, the call, and error mapping. Kept apart from ipc.ts so
 * it runs under plain Node (tests) — importing `electron` there would try to download its binary.
 */

/** Parse `raw` with the channel's zod tuple, call the host, and wrap the outcome as an Envelope. */
export async function invokeChannel<C extends HostChannel>(
  api: HostMethods,
  channel: C,
  raw: unknown[],
  log: (line: string) => void = () => {},
): Promise<Envelope<HostResults[C]>> {
  const parsed = hostChannels[channel].safeParse(raw);
  if (!parsed.success) {
    return { ok: false, error: { code: 'invalid-argument', message: `${channel}: ${z.prettifyError(parsed.error)}` } };
  }
  // The parsed tuple is the schema's output (defaults applied), which is a valid input to the method.
  const args = parsed.data as unknown as HostArgs<C>;
  try {
    const method: (...a: HostArgs<C>) => Promise<HostResults[C]> = api[channel];
    const value = await method.apply(api, args);
    return { ok: true, value };
  } catch (error) {
    const hostError = toHostError(error);
    if (hostError.code === 'internal') log(`${channel} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return { ok: false, error: hostError };
  }
}

const hostErrorCodes: Record<HostErrorCode, true> = {
  'invalid-argument': true,
  'unknown-server': true,
  'unknown-tool': true,
  'server-not-ready': true,
  'tool-call-failed': true,
  cancelled: true,
  'config-invalid': true,
  'provider-error': true,
  'not-configured': true,
  internal: true,
};

const hostErrorLike = z.object({ code: z.string(), message: z.string() });

/** Errors that already carry a known `{ code, message }` keep them; anything else is `internal`. */
export function toHostError(error: unknown): HostError {
  const parsed = hostErrorLike.safeParse(error);
  if (parsed.success && Object.hasOwn(hostErrorCodes, parsed.data.code)) {
    return { code: parsed.data.code as HostErrorCode, message: parsed.data.message };
  }
  if (error instanceof Error) return { code: 'internal', message: error.message };
  return { code: 'internal', message: String(error) };
}
