import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './processes';

/*
 * A tiny MCP Bundle for tests, packed with the official `@anthropic-ai/mcpb` CLI: a node server (plain JSON-RPC over
 * stdio, no dependencies) with one tool, `greet`, that answers with its GREETING and whether its API key arrived, and
 * a manifest 0.3 whose user_config has a sensitive key and a plain value.
 */

const serverSource = `
import { createInterface } from 'node:readline';
const send = (message) => process.stdout.write(JSON.stringify(message) + '\\n');
createInterface({ input: process.stdin }).on('line', (line) => {
  let message;
  try { message = JSON.parse(line); } catch { return; }
  if (message.id === undefined) return;
  const reply = (result) => send({ jsonrpc: '2.0', id: message.id, result });
  if (message.method === 'initialize') reply({ protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'greeter', version: '1.0.0' } });
  else if (message.method === 'ping') reply({});
  else if (message.method === 'tools/list') reply({ tools: [{ name: 'greet', description: 'Greets someone.', inputSchema: { type: 'object', properties: { who: { type: 'string' } } } }] });
  else if (message.method === 'tools/call') reply({ content: [{ type: 'text', text: (process.env.GREETING ?? 'Hello') + ', ' + (message.params.arguments?.who ?? 'you') + ' (key ' + (process.env.GREETER_KEY ? 'given' : 'missing') + ', dir ' + process.env.BUNDLE_DIR + ')' }] });
  else send({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } });
});
`;

export interface BundleOptions {
  name?: string;
  /** Overrides of manifest fields. */
  manifest?: Record<string, unknown>;
}

export function bundleManifest(options: BundleOptions = {}): Record<string, unknown> {
  return {
    manifest_version: '0.3',
    name: options.name ?? 'greeter',
    display_name: 'Greeter',
    version: '1.0.0',
    description: 'Greets people (a test bundle).',
    author: { name: 'Switchboard tests' },
    server: {
      type: 'node',
      entry_point: 'server/index.mjs',
      mcp_config: {
        command: 'node',
        args: ['${__dirname}/server/index.mjs'],
        env: { GREETER_KEY: '${user_config.api_key}', GREETING: '${user_config.greeting}', BUNDLE_DIR: '${__dirname}' },
      },
    },
    user_config: {
      api_key: { type: 'string', title: 'API key', description: 'The key for the greeting service', sensitive: true, required: true },
      greeting: { type: 'string', title: 'Greeting', description: 'What to say', default: 'Hello' },
    },
    compatibility: { platforms: ['darwin', 'win32', 'linux'], runtimes: { node: '>=18.0.0' } },
    ...options.manifest,
  };
}

const mcpbCli = (): string => join(process.cwd(), 'node_modules', '@anthropic-ai', 'mcpb', 'dist', 'cli', 'cli.js');

/** Runs the official mcpb CLI; throws with its output when it fails. */
export function mcpb(args: string[], cwd?: string): string {
  const run = spawnSync(process.execPath, [mcpbCli(), ...args], { encoding: 'utf8', timeout: 60_000, ...(cwd ? { cwd } : {}) });
  if (run.status !== 0) throw new Error(`mcpb ${args.join(' ')} failed (${run.status}): ${run.stdout}${run.stderr}`);
  return `${run.stdout}${run.stderr}`;
}

/** Packs the test bundle with `mcpb pack`; returns the .mcpb file. */
export function packBundle(options: BundleOptions = {}): string {
  const dir = tempDir();
  mkdirSync(join(dir, 'server'));
  writeFileSync(join(dir, 'server', 'index.mjs'), serverSource);
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(bundleManifest(options), null, 2));
  const file = join(tempDir(), `${options.name ?? 'greeter'}.mcpb`);
  mcpb(['pack', dir, file]);
  return file;
}
