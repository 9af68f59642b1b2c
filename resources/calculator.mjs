#!/usr/bin/env node
// Switchboard's bundled demo server: a stdio MCP server with four arithmetic tools.
// - CALC_PRECISION: digits to round results to (default 10).
// - --debug: log each call to stderr (stdout belongs to the protocol).
// It is plain JavaScript so that the app can start it with the runtime it runs on (Node, or Electron with
// ELECTRON_RUN_AS_NODE=1), without a TypeScript toolchain.
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';

const debug = process.argv.includes('--debug');
const log = (message) => {
  if (debug) process.stderr.write(`[calculator] ${message}\n`);
};

function precision() {
  const raw = process.env.CALC_PRECISION;
  if (raw === undefined || raw === '') return 10;
  const digits = Number(raw);
  if (!Number.isInteger(digits) || digits < 0 || digits > 15) {
    process.stderr.write(`[calculator] CALC_PRECISION=${JSON.stringify(raw)} is not a whole number 0-15; using 10\n`);
    return 10;
  }
  return digits;
}
const digits = precision();
const round = (value) => Number(value.toFixed(digits));

const operands = z.object({
  a: z.number().describe('The first operand'),
  b: z.number().describe('The second operand'),
});

const operations = {
  add: { description: 'Add two numbers: a + b', run: (a, b) => a + b },
  subtract: { description: 'Subtract b from a: a - b', run: (a, b) => a - b },
  multiply: { description: 'Multiply two numbers: a × b', run: (a, b) => a * b },
  divide: {
    description: 'Divide a by b: a ÷ b (b must not be zero)',
    run: (a, b) => {
      if (b === 0) throw new RangeError(`Cannot divide ${a} by zero: choose a non-zero divisor b.`);
      return a / b;
    },
  },
};

function createServer() {
  const server = new McpServer({ name: 'switchboard-calculator', version: '1.0.0' }, { capabilities: { tools: {} } });
  for (const [name, op] of Object.entries(operations)) {
    server.registerTool(
      name,
      { title: name[0].toUpperCase() + name.slice(1), description: op.description, inputSchema: operands, annotations: { readOnlyHint: true } },
      async ({ a, b }) => {
        try {
          const result = round(op.run(a, b));
          log(`${name}(${a}, ${b}) = ${result}`);
          return { content: [{ type: 'text', text: String(result) }] };
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          log(`${name}(${a}, ${b}) failed: ${message}`);
          return { content: [{ type: 'text', text: message }], isError: true };
        }
      },
    );
  }
  return server;
}

log(`starting (precision ${digits})`);
serveStdio(() => createServer(), { onerror: (error) => log(`transport error: ${error.message}`) });
