import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { ToolInfo } from '../../src-shared/host-api';
import type { IndexedTool } from '../core/chat/tool-search/tool-index';
import { tempDir } from './processes';

/*
 * The tool lists tool search is measured on, as the servers themselves list them (real child processes):
 * server-everything, server-filesystem and the catalogue fixture's three sets ("dev", "office", "zh"), each
 * padded to `perFixture` tools.
 */

const repo = process.cwd();
const fixture = join(repo, 'src-main', 'core', 'fixtures', 'catalog-server.mjs');

export function catalogueServers(perFixture = 100): Record<string, { command: string; args: string[] }> {
  const node = process.execPath;
  return {
    everything: { command: node, args: [join(repo, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js')] },
    filesystem: {
      command: node,
      args: [join(repo, 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js'), tempDir('switchboard-fs-')],
    },
    dev: { command: node, args: [fixture, '--set=dev', `--tools=${perFixture}`] },
    office: { command: node, args: [fixture, '--set=office', `--tools=${perFixture}`] },
    zh: { command: node, args: [fixture, '--set=zh', `--tools=${perFixture}`] },
  };
}

/** Lists each server's tools through the SDK's client and closes it. */
export async function listCatalogue(servers: Record<string, { command: string; args: string[] }> = catalogueServers()): Promise<IndexedTool[]> {
  const lists = await Promise.all(
    Object.entries(servers).map(async ([server, launch]) => {
      const client = new Client({ name: 'tool-catalogue', version: '1' });
      await client.connect(new StdioClientTransport({ ...launch, stderr: 'ignore' }));
      try {
        const { tools } = await client.listTools();
        return tools.map((t) => ({ server, tool: t.name, info: t as ToolInfo }));
      } finally {
        await client.close();
      }
    }),
  );
  return lists.flat();
}
