// Benchmark fixture for the renderer figures: `big {bytes}` returns that much text (lines of words).
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';

serveStdio(() => {
  const server = new McpServer({ name: 'bench-render', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.registerTool('big', { description: 'Return `bytes` bytes of text', inputSchema: z.object({ bytes: z.number().int().min(1) }) }, async ({ bytes }) => {
    const line = 'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor 0123456789\n';
    return { content: [{ type: 'text', text: line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes) }] };
  });
  return server;
});
