// Benchmark fixture: the trivial echo server every measurement runs against (both protocol eras).
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';

serveStdio(() => {
  const server = new McpServer({ name: 'bench-echo', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.registerTool('echo', { description: 'Echo the text back', inputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  // What the calling client declared (2026-07-28: its request's envelope; legacy: its initialize), so that the bench
  // can give a bare SDK client the same capabilities for a like-for-like figure.
  server.registerTool('client-capabilities', { description: "The caller's client capabilities, as JSON" }, async (ctx) => ({
    content: [
      {
        type: 'text',
        text: JSON.stringify(ctx?.mcpReq?.envelope?.['io.modelcontextprotocol/clientCapabilities'] ?? server.server.getClientCapabilities() ?? {}),
      },
    ],
  }));
  // The log level the calling client asks for in its request's `_meta` (2026-07-28; empty when none), so that the bench's
  // bare client can ask for the same.
  server.registerTool('client-log-level', { description: "The log level in the caller's request, if any" }, async (ctx) => ({
    content: [{ type: 'text', text: String(ctx?.mcpReq?.envelope?.['io.modelcontextprotocol/logLevel'] ?? '') }],
  }));
  return server;
});
