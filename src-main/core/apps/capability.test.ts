import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../host';
import { nodeRuntime } from '../config/runtime';
import { StaticSettings } from '../settings/store';
import { tempDir } from '../../test-support/processes';

const fixture = join(__dirname, '..', 'fixtures', 'apps-server.mjs');

let host: Host | undefined;
afterEach(async () => {
  await host?.dispose();
  host = undefined;
});

describe('MCP Apps client capability', () => {
  it('is declared to servers: extensions["io.modelcontextprotocol/ui"].mimeTypes, beside the other capabilities', async () => {
    const dataDir = tempDir();
    const configPath = join(dataDir, 'mcp.json');
    writeFileSync(configPath, JSON.stringify({ mcpServers: { apps: { command: process.execPath, args: [fixture] } } }));
    host = await createHost({
      mode: 'headless',
      configPath,
      dataDir,
      envDir: dataDir,
      settings: new StaticSettings(),
      runtime: nodeRuntime(),
      watchConfig: false,
      policy: { graceMs: 300, versionMode: 'legacy' },
    });
    await host.settled();
    const result = await host.api['tools:call']({ server: 'apps', tool: 'client_capabilities', args: {} });
    const text = result.content[0]?.type === 'text' ? result.content[0].text : '{}';
    const seen = JSON.parse(text) as { extensions?: Record<string, unknown>; sampling?: unknown };
    expect(seen.extensions?.['io.modelcontextprotocol/ui']).toEqual({ mimeTypes: ['text/html;profile=mcp-app'] });
    // The features' own capabilities are still there (merged, not replaced).
    expect(seen.sampling).toBeDefined();
  });
});
