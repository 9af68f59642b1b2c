// Benchmark fixture: the least a program can do for `switchboard tools` — the bare SDK, straight from
// node_modules: start the server (argv: COMMAND ARGS…) over stdio, negotiate the version, list the tools, print
// them as JSON, close. bench/cli-startup.ts times a whole process of it beside the CLI and the Inspector's.
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const [command = '', ...args] = process.argv.slice(2);
const client = new Client({ name: 'bench-bare-tools', version: '1' }, { versionNegotiation: { mode: 'auto' } });
await client.connect(new StdioClientTransport({ command, args, stderr: 'ignore' }));
const { tools } = await client.listTools();
process.stdout.write(`${JSON.stringify(tools, null, 2)}\n`);
await client.close();
