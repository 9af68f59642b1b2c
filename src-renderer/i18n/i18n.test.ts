import { afterEach, describe, expect, it } from 'vitest';
import { HostCallError } from '../contract';
import { describeError } from '../host-client';
import { currentLanguage, formatCount, i18n, setLanguage } from './index';

describe('the UI language', () => {
  afterEach(() => setLanguage('system'));

  it('switches at once; describeError words host errors from their code and data in it', () => {
    const error = new HostCallError({ code: 'unknown-server', message: 'There is no server named "fs" in the config.', data: { server: 'fs' } });
    expect(currentLanguage()).toBe('en');
    expect(describeError(error).message).toBe('There is no server named "fs" in the config.');
    setLanguage('zh-CN');
    expect(currentLanguage()).toBe('zh-CN');
    expect(i18n.t('nav.settings')).toBe('设置');
    expect(describeError(error)).toMatchObject({ code: 'unknown-server', message: '配置中没有名为“fs”的服务器。' });
    // Without a key for the code, the host's own words.
    expect(describeError(new Error('plain failure')).message).toBe('plain failure');
    expect(formatCount(12345)).toBe('12,345');
    setLanguage('en');
    expect(i18n.t('nav.settings')).toBe('Settings');
  });
});
