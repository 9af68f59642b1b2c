import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { messageOf } from './errors';

describe('messageOf', () => {
  it('says why a fetch failed: the network reason undici keeps only in the cause', async () => {
    // A port that was just free: nothing listens there any more.
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const failure = await fetch(`http://127.0.0.1:${port}/mcp`).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(TypeError);
    expect(messageOf(failure)).toBe(`fetch failed (connect ECONNREFUSED 127.0.0.1:${port})`);
  });

  it('names each address of a host that refused on all of them, once each', () => {
    const refused = (address: string) => Object.assign(new Error(`connect ECONNREFUSED ${address}`), { code: 'ECONNREFUSED' });
    const all = new AggregateError([refused('::1:9'), refused('127.0.0.1:9'), refused('127.0.0.1:9')]);
    expect(messageOf(new TypeError('fetch failed', { cause: all }))).toBe('fetch failed (connect ECONNREFUSED ::1:9; connect ECONNREFUSED 127.0.0.1:9)');
    const quiet = Object.assign(new AggregateError([]), { code: 'ECONNREFUSED' });
    expect(messageOf(new TypeError('fetch failed', { cause: quiet }))).toBe('fetch failed (ECONNREFUSED)');
  });

  it('leaves every other error as its message, and a non-error as its text', () => {
    expect(messageOf(new Error('boom', { cause: new Error('deeper') }))).toBe('boom');
    expect(messageOf(new TypeError('fetch failed'))).toBe('fetch failed');
    expect(messageOf('plain')).toBe('plain');
  });
});
