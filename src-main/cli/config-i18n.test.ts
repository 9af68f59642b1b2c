// A config's problem in the CLI's language: worded from its reason code and data (ConfigError.info), the English as it was.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliSync } from '../test-support/cli-process';
import { tempDir } from '../test-support/processes';

const cli = runCliSync;

describe("the CLI's config error", () => {
  it('says what is wrong in Chinese with SWITCHBOARD_LANG=zh-CN, and in the same English as before without', () => {
    const config = join(tempDir(), 'mcp.json');
    writeFileSync(config, '{"mcpServers": {"a": {"command": 5}}}');
    const zh = cli(['--config', config, 'list'], { SWITCHBOARD_LANG: 'zh-CN' });
    expect(zh.stderr).toContain(`配置文件 ${config} 第 1 行第 23 列有问题：mcpServers.a.command 必须是字符串，实际是数字 5`);
    expect(zh.stderr).not.toContain('must be a string');

    const en = cli(['--config', config, 'list'], {});
    expect(en.stderr).toContain(`${config}:1:23: mcpServers.a.command must be a string (the program to start), got a number (5)`);
  });

  it('words a JSON syntax error in Chinese', () => {
    const config = join(tempDir(), 'mcp.json');
    writeFileSync(config, '{"mcpServers": {"a": {"command": "x",}');
    const zh = cli(['--config', config, 'list'], { SWITCHBOARD_LANG: 'zh-CN' });
    expect(zh.stderr).toContain('不是有效的 JSON（缺少右花括号 }）');
  });
});
