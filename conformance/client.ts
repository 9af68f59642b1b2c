/**
 * The client under test for the official MCP conformance suite (`npm run conformance`): Switchboard's own core,
 * not a bare SDK client. The suite starts a scenario's server and runs `client.ts … <server-url>` with the scenario
 * named in MCP_CONFORMANCE_SCENARIO (and its data, if any, as JSON in MCP_CONFORMANCE_CONTEXT).
 *
 * What runs is what the app runs: `createHost` (Registry, supervisor, Session, the transport factory, the
 * feature modules and the RequestQueue) over a temporary config that holds the scenario's URL as one remote
 * server, with a data folder of its own. A scripted test person then does what a person at the app would: calls
 * the tools Switchboard offers (with the scenario's arguments where it gives them), reads the resources and gets
 * the prompts; every request the server makes of the host (sampling, elicitation, URL consent) reaches the
 * person through the queue and is answered there (./person.ts).
 *
 * Exit code 0 when everything the person did succeeded, 1 otherwise (the suite scores the wire, not this code).
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import type { ServerView } from '../src-shared/host-api';
import { FileSettings } from '../src-main/core/file-settings';
import { createHost, type Host } from '../src-main/core/host';
import { messageOf } from '../src-main/core/errors';
import { nodeRuntime } from '../src-main/core/runtime';
import { argumentsFor, TestPerson } from './person';

const serverName = 'conformance';

/** The parts of MCP_CONFORMANCE_CONTEXT this client uses; the rest (OAuth client data) is for the auth scenarios. */
const contextSchema = z
  .object({
    toolCalls: z.array(z.object({ name: z.string(), arguments: z.record(z.string(), z.unknown()).default({}) })).optional(),
  })
  .loose();

function log(line: string): void {
  process.stderr.write(`[switchboard-conformance] ${line}\n`);
}

async function main(argv: readonly string[]): Promise<number> {
  const url = argv.at(-1);
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '(none)';
  if (url === undefined || !/^https?:\/\//.test(url)) {
    log('usage: client.ts <server-url> (the conformance runner appends it; MCP_CONFORMANCE_SCENARIO names the scenario)');
    return 2;
  }
  let context: z.infer<typeof contextSchema> = {};
  if (process.env.MCP_CONFORMANCE_CONTEXT) {
    const parsed = contextSchema.safeParse(JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT));
    if (!parsed.success) {
      log(`MCP_CONFORMANCE_CONTEXT not understood: ${parsed.error.message}`);
      return 2;
    }
    context = parsed.data;
  }
  log(`scenario ${scenario} against ${url}`);

  const folder = mkdtempSync(join(tmpdir(), 'switchboard-conformance-'));
  const dataDir = join(folder, 'data');
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const configPath = join(folder, 'mcp.json');
  writeFileSync(configPath, `${JSON.stringify({ mcpServers: { [serverName]: { url } } }, null, 2)}\n`);
  let host: Host | undefined;
  let person: TestPerson | undefined;
  try {
    host = await createHost({
      mode: 'headless',
      configPath,
      dataDir,
      envDir: folder,
      hostEnv: {},
      settings: new FileSettings(dataDir),
      runtime: nodeRuntime(),
      watchConfig: false,
      interactive: true,
      // One scenario, one connection: a failure is reported, not retried behind the suite's back.
      policy: { autoRestart: false, pingIntervalMs: 0 },
    });
    person = new TestPerson(host.requests);
    return await act(host, context);
  } finally {
    person?.dispose();
    await host?.dispose();
    rmSync(folder, { recursive: true, force: true });
    if (person && person.seen.length > 0) log(`the test person answered ${person.seen.map((r) => r.kind).join(', ')}`);
  }
}

/** What the person does with the server once Switchboard has connected to it. */
async function act(host: Host, context: z.infer<typeof contextSchema>): Promise<number> {
  await host.settled(serverName);
  const view = (await host.api['servers:list']()).find((v) => v.name === serverName);
  if (!view || view.status !== 'ready') {
    log(`Switchboard did not connect: ${view ? `${view.status}${view.error ? ` — ${view.error}` : ''}` : 'no such server'}`);
    return 1;
  }
  log(`connected (${view.era ?? '?'} era, ${view.protocolVersion ?? 'no version'}); ${view.tools.length} tool(s): ${view.tools.map((t) => t.name).join(', ')}`);
  let failures = 0;
  const fail = (what: string, error: unknown): void => {
    failures++;
    log(`${what} failed: ${messageOf(error)}`);
  };

  // The tools: the calls the scenario names (its arguments), else every tool Switchboard offers.
  const calls = context.toolCalls ?? view.tools.map((tool) => ({ name: tool.name, arguments: argumentsFor(tool.inputSchema) }));
  for (const call of calls) {
    if (!view.tools.some((t) => t.name === call.name)) {
      log(`not calling ${call.name}: Switchboard does not offer it`);
      continue;
    }
    try {
      const result = await host.api['tools:call']({ server: serverName, tool: call.name, args: call.arguments, callId: randomUUID() });
      log(`called ${call.name}${result.isError ? ' (the tool reported an error)' : ''}`);
    } catch (error) {
      fail(`calling ${call.name}`, error);
    }
  }
  await browse(host, view, fail);
  return failures > 0 ? 1 : 0;
}

/** Resources and prompts, where the server offers them: list, read each resource, get each prompt. */
async function browse(host: Host, view: ServerView, fail: (what: string, error: unknown) => void): Promise<void> {
  if (view.capabilities?.resources) {
    try {
      const list = await host.api['resources:list'](serverName);
      if (list.error) fail('listing resources', list.error);
      for (const resource of list.resources) {
        await host.api['resources:read']({ server: serverName, uri: resource.uri }).catch((error: unknown) => fail(`reading ${resource.uri}`, error));
      }
    } catch (error) {
      fail('listing resources', error);
    }
  }
  if (view.capabilities?.prompts) {
    try {
      const list = await host.api['prompts:list'](serverName);
      if (list.error) fail('listing prompts', list.error);
      for (const prompt of list.prompts) {
        const args = Object.fromEntries(prompt.arguments.filter((a) => a.required).map((a) => [a.name, 'test']));
        await host.api['prompts:get']({ server: serverName, name: prompt.name, args }).catch((error: unknown) => fail(`getting prompt ${prompt.name}`, error));
      }
    } catch (error) {
      fail('listing prompts', error);
    }
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    log(`failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
