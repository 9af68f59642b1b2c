import { describe, expect, it } from 'vitest';
import { createI18n, localizeError } from '../../../src-shared/i18n';
import { CoreError } from '../errors';
import { resolveCommand } from './resolve-command';

function thrown(fn: () => unknown): CoreError {
  try {
    fn();
  } catch (error) {
    if (error instanceof CoreError) return error;
    throw error;
  }
  throw new Error('did not throw');
}

describe('resolveCommand failures carry a reason the UI words in its language', () => {
  const zh = createI18n('zh-CN');
  it('command not found: where it looked, in English and in Chinese', () => {
    const error = thrown(() => resolveCommand('no-such-program-xyz', '/nowhere/a:/nowhere/b', '/'));
    expect(error.code).toBe('config-invalid');
    expect(error.message).toBe('Cannot start "no-such-program-xyz": command not found. Looked in /nowhere/a:/nowhere/b. Install it, put its absolute path in "command", or add its folder to your login shell\'s PATH.');
    expect(error.data).toEqual({ reason: 'command-not-found', command: 'no-such-program-xyz', path: '/nowhere/a:/nowhere/b' });
    expect(localizeError(zh, error)).toBe('无法启动“no-such-program-xyz”：找不到该命令。已查找的位置：/nowhere/a:/nowhere/b。请安装它，在 "command" 中填写它的绝对路径，或把它所在的文件夹加入登录 shell 的 PATH。');
  });
  it('a path that is not an executable file', () => {
    const error = thrown(() => resolveCommand('./missing/tool', '', '/srv'));
    expect(error.data).toEqual({ reason: 'no-executable', command: './missing/tool', file: '/srv/missing/tool', where: 'command' });
    expect(localizeError(zh, error)).toBe('无法启动“./missing/tool”：/srv/missing/tool 处没有可执行文件。请检查配置中的 command 路径。');
  });
});
