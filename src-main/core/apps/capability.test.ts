import { afterEach, describe, expect, it } from 'vitest';
import type { Host } from '../host';
import { appsTestHost } from './test-host';

let host: Host | undefined;
afterEach(async () => {
  await host?.dispose();
  host = undefined;
});

describe('MCP Apps client capability', () => {
  it('is declared to servers: extensions["io.modelcontextprotocol/ui"].mimeTypes, beside the other capabilities', async () => {
    host = await appsTestHost();
    const result = await host.api['tools:call']({ server: 'apps', tool: 'client_capabilities', args: {} });
    const text = result.content[0]?.type === 'text' ? result.content[0].text : '{}';
    const seen = JSON.parse(text) as { extensions?: Record<string, unknown>; sampling?: unknown };
    expect(seen.extensions?.['io.modelcontextprotocol/ui']).toEqual({ mimeTypes: ['text/html;profile=mcp-app'] });
    // The features' own capabilities are still there (merged, not replaced).
    expect(seen.sampling).toBeDefined();
  });
});
