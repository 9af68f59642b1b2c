// Importing other hosts' configs: VS Code workspace folders become the imported servers' roots.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { previewImport, vscodeWorkspaceFolders } from './importers';
import { tempDir } from '../test-support/processes';

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
    writeFileSync(file, `{ // a JSONC file\n "folders": [{ "path": "app" }, { "path": "/abs/lib" }], "settings": { "mcp": { "servers": { "calc": { "command": "node", "args": ["c.js"] } } } } }`);
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
