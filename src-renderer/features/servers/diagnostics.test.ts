// Sandbox and ping reasons the UI words itself from their codes and data (the launch details, the health chip).
import { afterEach, describe, expect, it } from 'vitest';
import { setLanguage } from '../../i18n';
import { diagnosticReason } from './diagnostics';

describe('diagnosticReason', () => {
  afterEach(() => setLanguage('system'));

  it('a sandbox and a ping reason in Chinese from code and data; in English the host text as it is', () => {
    const sandbox = 'SWITCHBOARD_BWRAP names /x/bwrap, which does not exist';
    const sandboxInfo = { code: 'bwrap-override-missing', data: { path: '/x/bwrap' } };
    const ping = 'Server "remote" did not answer ping within 400 ms';
    const pingInfo = { code: 'ping-missed', data: { server: 'remote', method: 'ping', timeoutMs: 400 } };
    setLanguage('en');
    expect(diagnosticReason('sandbox', sandbox, sandboxInfo)).toBe(sandbox);
    expect(diagnosticReason('ping', ping, pingInfo)).toBe(ping);
    setLanguage('zh-CN');
    expect(diagnosticReason('sandbox', sandbox, sandboxInfo)).toBe('SWITCHBOARD_BWRAP 指定的 /x/bwrap 不存在');
    expect(diagnosticReason('ping', ping, pingInfo)).toBe('服务器“remote”没有在 400 毫秒内回应 ping');
    expect(
      diagnosticReason('ping', 'Server "r" could not be pinged (ping): socket hang up', {
        code: 'ping-failed',
        data: { server: 'r', method: 'ping', detail: 'socket hang up' },
      }),
    ).toBe('无法 ping 服务器“r”（ping）：socket hang up');
  });

  it('without a code, for a code without a wording, or data that cannot fill it: the host text', () => {
    setLanguage('zh-CN');
    expect(diagnosticReason('sandbox', 'English', undefined)).toBe('English');
    expect(diagnosticReason('sandbox', 'English', { code: 'no-such-code' })).toBe('English');
    expect(diagnosticReason('ping', 'English', { code: 'ping-missed', data: { server: 'r' } })).toBe('English');
  });
});
