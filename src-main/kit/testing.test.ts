import { describe, expect, it } from 'vitest';
import { probeInitialize, serverNameOf } from '../test-support/initialize-probe';
import { testServer, testServerNames } from './testing';

describe('the test servers of switchboard/testing', () => {
  it('crashing writes its line to stderr and exits with its code, before answering anything', async () => {
    const ran = await probeInitialize(testServer('crashing', { 'exit-code': 4, message: 'boom: no such database' }));
    expect(ran).toEqual({ code: 4, stderr: 'boom: no such database\n', answer: undefined });
  });

  it('crashing with --after-ready-ms answers the handshake, then dies', async () => {
    const ran = await probeInitialize(testServer('crashing', { 'after-ready-ms': 50, 'exit-code': 5 }), { waitExitMs: 1 });
    expect(serverNameOf(ran.answer)).toBe('crashing');
    expect(ran.code).toBe(5);
    expect(ran.stderr).toContain('crashing: fatal error, exiting');
  });

  it.each(testServerNames.filter((name) => name !== 'crashing'))('%s answers initialize from source', async (name) => {
    const ran = await probeInitialize(testServer(name, name === 'many-tools' ? { tools: 20 } : {}));
    expect(serverNameOf(ran.answer), ran.stderr).toEqual(expect.any(String));
  });
  // As bundled in out/kit: kit-pack.test.ts (npm run test:kit, after the build).
});
