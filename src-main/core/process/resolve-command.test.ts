import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

const zh = createI18n('zh-CN');

describe('resolveCommand failures carry a reason the UI words in its language', () => {
  it('command not found: where it looked, in English and in Chinese', () => {
    const error = thrown(() => resolveCommand('no-such-program-xyz', '/nowhere/a:/nowhere/b', '/'));
    expect(error.code).toBe('config-invalid');
    expect(error.message).toBe(
      'Cannot start "no-such-program-xyz": command not found. Looked in /nowhere/a:/nowhere/b. Install it, put its absolute path in "command", or add its folder to your login shell\'s PATH.',
    );
    expect(error.data).toEqual({ reason: 'command-not-found', command: 'no-such-program-xyz', path: '/nowhere/a:/nowhere/b' });
    expect(localizeError(zh, error)).toBe(
      '无法启动“no-such-program-xyz”：找不到该命令。已查找的位置：/nowhere/a:/nowhere/b。请安装它，在 "command" 中填写它的绝对路径，或把它所在的文件夹加入登录 shell 的 PATH。',
    );
  });
  it('an absolute path that is not an executable file', () => {
    const error = thrown(() => resolveCommand('/srv/missing/tool', '', '/elsewhere'));
    expect(error.data).toEqual({ reason: 'no-executable', command: '/srv/missing/tool', file: '/srv/missing/tool', where: 'command' });
    expect(localizeError(zh, error)).toBe('无法启动“/srv/missing/tool”：/srv/missing/tool 处没有可执行文件。请检查配置中的 command 路径。');
  });
  it('a relative path names the folder it started in and how to fix it', () => {
    const error = thrown(() => resolveCommand('./missing/tool', '', '/srv'));
    expect(error.message).toBe(
      'Cannot start "./missing/tool": no executable file at /srv/missing/tool. A relative command starts in /srv (the server\'s "cwd", else the config file\'s folder): correct the path, or give an absolute one.',
    );
    expect(error.data).toEqual({ reason: 'no-executable-relative', command: './missing/tool', file: '/srv/missing/tool', base: '/srv', where: 'command' });
    expect(localizeError(zh, error)).toBe(
      '无法启动“./missing/tool”：/srv/missing/tool 处没有可执行文件。相对路径的 command 从 /srv 开始查找（服务器的 "cwd"，没有则为配置文件所在的文件夹）：请改正路径，或填写绝对路径。',
    );
  });
});

describe.skipIf(process.platform === 'win32')(
  `resolveCommand with a base folder${process.platform === 'win32' ? ' (skipped: it relies on POSIX executable bits)' : ''}`,
  () => {
    it('resolves ./x and x/y against the base folder, not the process working folder', () => {
      const dir = mkdtempSync(join(tmpdir(), 'switchboard-resolve-'));
      mkdirSync(join(dir, 'bin'));
      writeFileSync(join(dir, 'bin', 'server'), '#!/bin/sh\n');
      chmodSync(join(dir, 'bin', 'server'), 0o755);
      expect(process.cwd()).not.toBe(dir);
      expect(resolveCommand('./bin/server', '', dir)).toBe(join(dir, 'bin', 'server'));
      expect(resolveCommand('bin/server', '', dir)).toBe(join(dir, 'bin', 'server'));
      expect(resolveCommand('server', join(dir, 'bin'), '/elsewhere')).toBe(join(dir, 'bin', 'server'));
    });

    it('a whole command line in "command" says where the program and the arguments go', () => {
      for (const command of ['npx -y @modelcontextprotocol/server-everything', 'uvx mcp-server-git']) {
        const error = thrown(() => resolveCommand(command, '/nowhere', '/srv'));
        expect(error.data).toMatchObject({ reason: 'command-line', command });
      }
      const error = thrown(() => resolveCommand('npx -y "my pkg"', '/nowhere', '/srv'));
      expect(error.message).toBe(
        'Cannot start "npx -y "my pkg"": "command" holds a whole command line. Put the program in "command" ("npx") and the rest in "args" (["-y","my pkg"]); the server form splits a pasted line for you.',
      );
      expect(localizeError(zh, error)).toBe(
        '无法启动“npx -y "my pkg"”："command" 中是一整条命令行。请把程序（"npx"）填在 "command" 中，其余部分填在 "args" 中（["-y","my pkg"]）；服务器表单会自动拆分粘贴的命令行。',
      );
    });

    it('a path with spaces that does not exist is not taken for a command line; an existing program with arguments is', () => {
      expect(thrown(() => resolveCommand('/opt/My App/server', '', '/srv')).data).toMatchObject({ reason: 'no-executable' });
      const dir = mkdtempSync(join(tmpdir(), 'switchboard-resolve-'));
      writeFileSync(join(dir, 'server'), '#!/bin/sh\n');
      chmodSync(join(dir, 'server'), 0o755);
      expect(thrown(() => resolveCommand('./server --port 3', '', dir)).data).toMatchObject({
        reason: 'command-line',
        program: './server',
        args: '["--port","3"]',
      });
    });
  },
);
