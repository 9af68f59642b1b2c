import { spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { McpServer, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startOAuthFixture } from '../src-main/test-support/oauth-fixture';

// The conformance client (Switchboard's core) against a loopback server built with the server SDK, as the suite
// runs it: `client.ts <url>` with MCP_CONFORMANCE_SCENARIO (and MCP_CONFORMANCE_CONTEXT) set. Nothing is downloaded.

interface Seen {
  calls: { name: string; args: Record<string, unknown> }[];
  reads: string[];
}
const seen: Seen = { calls: [], reads: [] };

function mcp(): McpServer {
  const server = new McpServer({ name: 'conformance-test', version: '1.0.0' }, { capabilities: { tools: {}, resources: {} } });
  server.registerTool('add_numbers', { description: 'Adds', inputSchema: z.object({ a: z.number(), b: z.number() }) }, async (args) => {
    seen.calls.push({ name: 'add_numbers', args });
    return { content: [{ type: 'text', text: String(args.a + args.b) }] };
  });
  server.registerTool('greet', { description: 'Greets', inputSchema: z.object({ region: z.string() }) }, async (args) => {
    seen.calls.push({ name: 'greet', args });
    return { content: [{ type: 'text', text: `hello ${args.region}` }] };
  });
  server.registerResource('readme', 'test://readme', { mimeType: 'text/plain' }, async (uri) => {
    seen.reads.push(uri.href);
    return { contents: [{ uri: uri.href, text: 'read me' }] };
  });
  return server;
}

let http: Server;
let url: string;

beforeAll(async () => {
  http = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST' }).end();
        const body = Buffer.concat(chunks);
        const headers = new Headers();
        for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
        // Stateless: one server and transport per request.
        const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
        const server = mcp();
        await server.connect(transport);
        const response = await transport.handleRequest(new Request(`${url}`, { method: 'POST', headers, body }), {
          parsedBody: JSON.parse(body.toString('utf8')) as unknown,
        });
        const out: Record<string, string> = {};
        response.headers.forEach((value, key) => (out[key] = value));
        res.writeHead(response.status, out).end(Buffer.from(await response.arrayBuffer()));
        void server.close();
      })().catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500).end(String(error));
      });
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
});

afterAll(async () => {
  http.closeAllConnections();
  await new Promise<void>((resolve) => http.close(() => resolve()));
});

beforeEach(() => {
  seen.calls = [];
  seen.reads = [];
});

function runClient(target: string, env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'client.ts'), target], {
      cwd: join(import.meta.dirname, '..'),
      env: { ...process.env, MCP_CONFORMANCE_CONTEXT: '', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('the conformance client', () => {
  it('connects through Switchboard, calls every tool it offers with arguments of their types, and reads the resources', async () => {
    const { code, stderr } = await runClient(url, { MCP_CONFORMANCE_SCENARIO: 'tools_call' });
    expect(stderr).toContain('scenario tools_call');
    expect(code).toBe(0);
    expect(seen.calls).toEqual([
      { name: 'add_numbers', args: { a: 1, b: 1 } },
      { name: 'greet', args: { region: 'test' } },
    ]);
    expect(seen.reads).toEqual(['test://readme']);
  });

  it('makes exactly the calls the scenario context names, with its arguments', async () => {
    const context = { name: 'http-custom-headers', toolCalls: [{ name: 'greet', arguments: { region: ' us-west1' } }] };
    const { code } = await runClient(url, { MCP_CONFORMANCE_SCENARIO: 'http-custom-headers', MCP_CONFORMANCE_CONTEXT: JSON.stringify(context) });
    expect(code).toBe(0);
    expect(seen.calls).toEqual([{ name: 'greet', args: { region: ' us-west1' } }]);
  });

  it('signs in when the server asks (a real authorization server on loopback), then calls its tools', async () => {
    const fixture = await startOAuthFixture();
    try {
      const { code, stderr } = await runClient(fixture.mcp, { MCP_CONFORMANCE_SCENARIO: 'auth/metadata-default' });
      expect(stderr).toMatch(/needs sign-in at 127\.0\.0\.1:\d+.*the test person signs in/);
      expect(stderr).toContain('sign-in: signed-in');
      expect(stderr).toContain('called whoami');
      // `write` needs a scope the first sign-in did not get (403 insufficient_scope): the person signs in again.
      expect(stderr).toContain('called write');
      expect(code).toBe(0);
      const stats = await fixture.stats();
      expect(stats.grants.authorization_code).toBeGreaterThanOrEqual(1);
    } finally {
      await fixture.stop();
    }
  });

  it('gets machine-to-machine tokens for the client-credentials scenarios (client_secret_basic, private_key_jwt), with no sign-in', async () => {
    const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = { ...publicKey.export({ format: 'jwk' }), alg: 'ES256', use: 'sig', kid: 'conformance-key' };
    const fixture = await startOAuthFixture(['--m2m-jwk', JSON.stringify(jwk)]);
    try {
      const contexts = [
        { name: 'auth/client-credentials-basic', client_id: 'machine-basic', client_secret: 'm2m-secret-value' },
        {
          name: 'auth/client-credentials-jwt',
          client_id: 'machine-jwt',
          private_key_pem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
          signing_algorithm: 'ES256',
        },
      ];
      for (const context of contexts) {
        const { code, stderr } = await runClient(fixture.mcp, { MCP_CONFORMANCE_SCENARIO: context.name, MCP_CONFORMANCE_CONTEXT: JSON.stringify(context) });
        expect(stderr).not.toContain('needs sign-in');
        expect(stderr).toContain('called whoami');
        expect(code, stderr).toBe(0);
      }
      const stats = await fixture.stats();
      expect(stats.grants.client_credentials).toBeGreaterThanOrEqual(2);
      expect(stats.grants.authorization_code ?? 0).toBe(0);
    } finally {
      await fixture.stop();
    }
  });

  it('exits 1 with Switchboard’s reason when it cannot connect', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const { code, stderr } = await runClient(`http://127.0.0.1:${port}/mcp`, { MCP_CONFORMANCE_SCENARIO: 'initialize' });
    expect(code).toBe(1);
    expect(stderr).toContain('Switchboard did not connect: error');
    expect(stderr).toContain('connection refused');
  });
});
