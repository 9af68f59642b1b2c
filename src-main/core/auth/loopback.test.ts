import { describe, expect, it } from 'vitest';
import { LoopbackError, LoopbackListener } from './loopback';

const refused = async (url: string): Promise<boolean> => {
  try {
    await fetch(url);
    return false;
  } catch {
    return true;
  }
};

describe('LoopbackListener (RFC 8252 redirect on 127.0.0.1)', () => {
  it('takes the one redirect with the expected state, ignores others, then closes', async () => {
    const listener = await LoopbackListener.open();
    expect(listener.redirectUrl).toBe(`http://127.0.0.1:${listener.port}/callback`);
    listener.expectState('right-state');
    const forged = await fetch(`${listener.redirectUrl}?code=evil&state=wrong`);
    expect(forged.status).toBe(400);
    expect((await fetch(`http://127.0.0.1:${listener.port}/other`)).status).toBe(404);
    const real = await fetch(`${listener.redirectUrl}?code=abc&state=right-state&iss=https%3A%2F%2Fas.example`);
    expect(real.status).toBe(200);
    expect(await real.text()).toContain('Signed in');
    const { params } = await listener.wait();
    expect(params.get('code')).toBe('abc');
    expect(params.get('iss')).toBe('https://as.example');
    await expect.poll(() => refused(listener.redirectUrl)).toBe(true);
  });

  it('listens on the port asked for (the registered redirect), and says so when it is taken', async () => {
    const first = await LoopbackListener.open();
    try {
      const again = LoopbackListener.open({ port: first.port });
      await expect(again).rejects.toBeInstanceOf(LoopbackError);
      await expect(again).rejects.toThrow(/in use/);
    } finally {
      first.close();
    }
    const reused = await LoopbackListener.open({ port: first.port });
    expect(reused.port).toBe(first.port);
    reused.close();
    await expect(reused.wait()).rejects.toThrow(/closed/);
  });

  it('closes after its time without a redirect, and on cancel', async () => {
    const timed = await LoopbackListener.open({ timeoutMs: 20 });
    await expect(timed.wait()).rejects.toThrow(/No sign-in redirect arrived/);
    await expect.poll(() => refused(timed.redirectUrl)).toBe(true);
    const controller = new AbortController();
    const cancelled = await LoopbackListener.open({ signal: controller.signal });
    controller.abort();
    await expect(cancelled.wait()).rejects.toThrow(/cancelled/);
  });

  it('an error redirect resolves too (the caller reports the error code)', async () => {
    const listener = await LoopbackListener.open();
    listener.expectState('s');
    expect((await fetch(`${listener.redirectUrl}?error=access_denied&state=s`)).status).toBe(400);
    expect((await listener.wait()).params.get('error')).toBe('access_denied');
  });
});
