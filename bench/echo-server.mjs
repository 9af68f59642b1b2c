// Benchmark fixture: the trivial echo server every measurement runs against (both protocol eras).
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';

serveStdio(() => {
  const server = new McpServer({ name: 'bench-echo', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.registerTool('echo', { description: 'Echo the text back', inputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  return server;
});
