// Importing other hosts' configs: VS Code workspace folders become the imported servers' roots.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createI18n, localizeReason } from '../../../src-shared/i18n';
import { createHost } from '../host';
import { previewImport, vscodeWorkspaceFolders } from './importers';
import { nodeRuntime } from './runtime';
import { StaticSettings } from '../settings/store';
import { tempDir } from '../../test-support/processes';

describe('VS Code workspace folders → roots', () => {
  it('a .vscode/mcp.json gives its workspace folder as roots and fills ${workspaceFolder}', () => {
    const workspace = tempDir();
    mkdirSync(join(workspace, '.vscode'));
    const file = join(workspace, '.vscode', 'mcp.json');
    writeFileSync(
      file,
      JSON.stringify({
        servers: {
          files: { type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '${workspaceFolder}'] },
          own: { command: 'node', args: ['s.js'], roots: ['/elsewhere'] },
        },
      }),
    );
    expect(vscodeWorkspaceFolders(file)).toEqual([workspace]);
    const preview = previewImport(file, { mcpServers: {} });
    const byName = Object.fromEntries(preview.servers.map((s) => [s.name, s]));
    expect(byName.files?.invalid).toBeUndefined();
    expect(byName.files?.entry).toMatchObject({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', workspace], roots: [workspace] });
    // An entry with roots of its own keeps them.
    expect(byName.own?.entry.roots).toEqual(['/elsewhere']);
  });

  it('a .code-workspace file gives its folders (relative to the file), its servers under settings.mcp', () => {
    const dir = tempDir();
    const file = join(dir, 'project.code-workspace');
    writeFileSync(
      file,
      `{ // a JSONC file\n "folders": [{ "path": "app" }, { "path": "/abs/lib" }], "settings": { "mcp": { "servers": { "calc": { "command": "node", "args": ["c.js"] } } } } }`,
    );
    const preview = previewImport(file, { mcpServers: {} });
    expect(preview.servers).toHaveLength(1);
    expect(preview.servers[0]?.entry.roots).toEqual([join(dir, 'app'), '/abs/lib']);
  });

  it("the user's own mcp.json (no workspace) adds no roots", () => {
    const dir = tempDir();
    const file = join(dir, 'mcp.json');
    writeFileSync(file, JSON.stringify({ servers: { calc: { command: 'node' } } }));
    expect(vscodeWorkspaceFolders(file)).toBeUndefined();
    expect(previewImport(file, { mcpServers: {} }).servers[0]?.entry.roots).toBeUndefined();
  });
});

describe('why an entry cannot be imported, as a code and data the UI words in its language', () => {
  const zh = createI18n('zh-CN');
  const en = createI18n('en');
  const file = (): string => {
    const dir = tempDir();
    const path = join(dir, 'claude_desktop_config.json');
    writeFileSync(
      path,
      JSON.stringify({
        mcpServers: {
          scalar: 5,
          neither: { env: {} },
          both: { command: 'node', url: 'https://example.com/mcp' },
          badArgs: { command: 'node', args: 'server.js' },
          badTimeout: { command: 'node', timeout: -1 },
          fine: { command: 'node', args: ['s.js'] },
        },
      }),
    );
    return path;
  };

  it('each invalid entry has its English text and a code: Chinese from the code, English as before', () => {
    const preview = previewImport(file(), { mcpServers: {} });
    const by = Object.fromEntries(preview.servers.map((s) => [s.name, s]));
    expect(by.scalar).toMatchObject({ invalid: 'is not an object', invalidInfo: { code: 'import-not-object' } });
    expect(by.neither?.invalidInfo).toEqual({ code: 'import-needs-command-or-url' });
    expect(by.both?.invalidInfo).toEqual({ code: 'import-both-command-and-url' });
    expect(by.badArgs?.invalidInfo).toEqual({ code: 'import-invalid-type', data: { path: 'args', why: 'array' } });
    expect(by.badTimeout?.invalidInfo).toMatchObject({ code: 'import-invalid-field', data: { path: 'timeout' } });
    expect(by.fine?.invalid).toBeUndefined();
    const words = (name: string, i18n = zh): string => localizeReason(i18n, by[name]?.invalid ?? '', by[name]?.invalidInfo);
    expect(words('scalar')).toBe('不是一个对象');
    expect(words('neither')).toBe('条目需要 "command"（要启动的程序）或 "url"（远程服务器）二者之一');
    expect(words('both')).toBe('条目同时有 "command" 和 "url"：只保留一个');
    expect(words('badArgs')).toBe('args 必须是数组');
    expect(words('badTimeout')).toMatch(/^timeout 无效：/);
    for (const name of ['scalar', 'neither', 'both', 'badArgs', 'badTimeout']) expect(words(name, en)).toBe(by[name]?.invalid);
  });

  it("the import's skip reasons come with codes too (an invalid one quotes the entry's own, worded first)", async () => {
    const dataDir = tempDir();
    const config = join(dataDir, 'mcp.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { fine: { command: 'node', args: ['s.js'], disabled: true } } }));
    const host = await createHost({ mode: 'headless', configPath: config, dataDir, envDir: dataDir, settings: new StaticSettings(), runtime: nodeRuntime() });
    try {
      const result = await host.api['config:import-apply']({ source: file(), names: ['badArgs', 'nowhere'] });
      const by = Object.fromEntries(result.skipped.map((s) => [s.name, s]));
      expect(by.badArgs?.reason).toMatch(/^invalid in the source: args /);
      expect(by.badArgs?.reasonInfo).toMatchObject({ code: 'import-skipped-invalid', cause: { code: 'import-invalid-type', data: { why: 'array' } } });
      expect(localizeReason(zh, by.badArgs?.reason ?? '', by.badArgs?.reasonInfo)).toBe('源文件中的条目无效：args 必须是数组');
      expect(localizeReason(en, by.badArgs?.reason ?? '', by.badArgs?.reasonInfo)).toBe(by.badArgs?.reason);
      expect(by.nowhere?.reasonInfo?.code).toBe('import-not-in-source');
      expect(localizeReason(zh, by.nowhere?.reason ?? '', by.nowhere?.reasonInfo)).toMatch(/^不在 .*claude_desktop_config\.json 中$/);
    } finally {
      await host.dispose();
    }
  });
});
