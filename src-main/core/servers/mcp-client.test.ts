// McpClient's own tools/call result validator (made once per era codec) must judge results exactly as the SDK's
// per-request one does: the same results accepted, the same ones refused with the same text. A real legacy stdio
// server (written to a temp folder) answers each echo call with what the call asks for, valid or not.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { ProcessTransport } from '../process/transport';
import { tempDir } from '../../test-support/processes';
import { McpClient } from './mcp-client';
import { FEATURE_ERAS, hostWith } from '../../test-support/features-fixture';
import type { Host } from '../host';

const server = `
import { onStdinLines } from ${JSON.stringify(join(import.meta.dirname, '..', 'fixtures', 'stdin-lines.mjs'))};
const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
onStdinLines((line) => {
  const m = JSON.parse(line);
  if (m.id === undefined) return;
  if (m.method === 'initialize') return send({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'shapes', version: '1' } } });
  if (m.method === 'tools/call') return send({ jsonrpc: '2.0', id: m.id, result: JSON.parse(m.params.arguments.result) });
  send({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'no' } });
});
`;
const script = join(tempDir('switchboard-host-client-'), 'shapes-server.mjs');
writeFileSync(script, server);

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
});

async function connected(kind: 'sdk' | 'host'): Promise<Client> {
  const info = { name: 'shapes-test', version: '1' };
  const options = { versionNegotiation: { mode: 'legacy' as const } };
  const client = kind === 'host' ? new McpClient(info, options) : new Client(info, options);
  clients.push(client);
  await client.connect(new ProcessTransport({ command: process.execPath, args: [script], env: { PATH: process.env.PATH ?? '' } }));
  return client;
}

/** What a call answering `result` comes to: the value, or the error's text. */
async function outcome(client: Client, result: unknown): Promise<unknown> {
  try {
    return { value: await client.callTool({ name: 'echo', arguments: { result: JSON.stringify(result) } }) };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

describe('McpClient: tools/call results judged as the SDK judges them', () => {
  it('accepts and refuses the same results, with the same text, call after call', async () => {
    const [sdk, host] = await Promise.all([connected('sdk'), connected('host')]);
    const results: unknown[] = [
      { content: [{ type: 'text', text: 'fine' }] },
      { content: 'not a list' },
      { content: [{ type: 'text', text: 'structured' }], structuredContent: { n: 1 }, isError: false },
      { content: [{ type: 'bogus-kind' }] },
      { content: [{ type: 'text', text: 'again fine' }] },
    ];
    const seen: unknown[] = [];
    for (const result of results) {
      const expected = await outcome(sdk, result);
      expect(await outcome(host, result)).toEqual(expected);
      seen.push(expected);
    }
    // Both kinds occurred (the check above compared refusals too, not only successes).
    expect(seen.filter((o) => 'error' in (o as object)).length).toBeGreaterThan(0);
    expect(seen.filter((o) => 'value' in (o as object)).length).toBeGreaterThan(0);
  });
});

// The client capabilities a server sees, through a whole host (its features declare them) in each era: 2025-11-25's
// top-level `tasks` (task-augmented sampling and elicitation) at `initialize` only; 2026-07-28 requests carry that
// era's capabilities, tasks as the extension.
describe.each(FEATURE_ERAS)('the capabilities declared ($era era)', ({ era, versionMode }) => {
  let host: Host | undefined;
  afterEach(async () => {
    await host?.dispose();
    host = undefined;
  });

  it('are the era’s own', async () => {
    ({ host } = await hostWith({ env: { command: process.execPath, args: [join(import.meta.dirname, '..', 'fixtures', 'env-server.mjs')] } }, { versionMode }));
    await host.settled();
    const result = await host.api['tools:call']({ server: 'env', tool: 'declared' });
    const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
    const declared = JSON.parse(text) as { era: string; capabilities: Record<string, unknown> };
    expect(declared.era).toBe(era);
    expect(declared.capabilities).toMatchObject({
      sampling: {},
      elicitation: { form: {}, url: {} },
      roots: {},
      extensions: { 'io.modelcontextprotocol/tasks': {} },
    });
    if (era === 'legacy')
      expect(declared.capabilities.tasks).toEqual({ list: {}, cancel: {}, requests: { sampling: { createMessage: {} }, elicitation: { create: {} } } });
    else expect(declared.capabilities).not.toHaveProperty('tasks');
  });
});
