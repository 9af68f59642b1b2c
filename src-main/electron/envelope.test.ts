import { describe, expect, it } from 'vitest';
import type { HostMethods } from '../../src-shared/host-api';
import { fakeHostApi } from '../test-support/fake-api';
import { invokeChannel, toHostError } from './envelope';

function fakeApi(overrides: Partial<HostMethods>): HostMethods {
  return fakeHostApi(overrides);
}

describe('invokeChannel', () => {
  it('passes parsed arguments (defaults applied) and wraps the value', async () => {
    const seen: unknown[] = [];
    const api = fakeApi({
      'tools:call': async (request) => {
        seen.push(request);
        return { content: [{ type: 'text', text: '3' }] };
      },
    });
    const envelope = await invokeChannel(api, 'tools:call', [{ server: 'calc', tool: 'add' }]);
    expect(envelope).toEqual({ ok: true, value: { content: [{ type: 'text', text: '3' }] } });
    expect(seen).toEqual([{ server: 'calc', tool: 'add', args: {} }]);
  });

  it('refuses bad arguments without calling the host', async () => {
    let called = false;
    const api = fakeApi({
      'servers:restart': async () => {
        called = true;
      },
    });
    for (const args of [[], [''], [42], ['a', 'extra']]) {
      const envelope = await invokeChannel(api, 'servers:restart', args);
      expect(envelope.ok).toBe(false);
      if (!envelope.ok) expect(envelope.error.code).toBe('invalid-argument');
    }
    expect(called).toBe(false);
  });

  it('keeps a thrown HostError code and maps anything else to internal', async () => {
    const typed = fakeApi({
      'servers:restart': () => Promise.reject(Object.assign(new Error('no such server: x'), { code: 'unknown-server' })),
    });
    expect(await invokeChannel(typed, 'servers:restart', ['x'])).toEqual({
      ok: false,
      error: { code: 'unknown-server', message: 'no such server: x' },
    });
    const logged: string[] = [];
    const plain = fakeApi({ 'servers:restart': () => Promise.reject(new Error('boom')) });
    expect(await invokeChannel(plain, 'servers:restart', ['x'], (l) => logged.push(l))).toEqual({
      ok: false,
      error: { code: 'internal', message: 'boom' },
    });
    expect(logged.join('\n')).toContain('boom');
  });
});

describe('toHostError', () => {
  it('does not trust codes it does not know', () => {
    expect(toHostError(Object.assign(new Error('gone'), { code: 'ENOENT' }))).toEqual({ code: 'internal', message: 'gone' });
    expect(toHostError({ code: 'cancelled', message: 'stopped' })).toEqual({ code: 'cancelled', message: 'stopped' });
    expect(toHostError('text')).toEqual({ code: 'internal', message: 'text' });
  });
});
