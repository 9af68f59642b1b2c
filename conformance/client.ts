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
 * person through the queue and is answered there (./person.ts). A server that needs sign-in (or more scopes) gets
 * what the Sign in button does (`auth:login`), with a scripted browser as the app's URL opener.
 *
 * Exit code 0 when everything the person did succeeded, 1 otherwise (the suite scores the wire, not this code).
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import type { ServerView } from '../src-shared/host-api';
import { FileSettings } from '../src-main/core/settings/file-store';
import { FileSecretStore } from '../src-main/core/secrets/store';
import { createHost, type Host } from '../src-main/core/host';
import { messageOf } from '../src-main/core/errors';
import { nodeRuntime } from '../src-main/core/config/runtime';
import { followInBrowser } from '../src-main/test-support/oauth-fixture';
import { argumentsFor, TestPerson } from './person';

const serverName = 'conformance';

/** The parts of MCP_CONFORMANCE_CONTEXT this client uses; the rest (OAuth client data) is for the auth scenarios. */
const contextSchema = z
  .object({
    name: z.string().optional(),
    toolCalls: z.array(z.object({ name: z.string(), arguments: z.record(z.string(), z.unknown()).default({}) })).optional(),
    /** Pre-registered OAuth client credentials (auth/pre-registration): the person puts them in the server entry. */
    client_id: z.string().optional(),
    client_secret: z.string().optional(),
    /** auth/client-credentials-jwt (private_key_jwt): the PEM key that signs the client assertion, and its algorithm. */
    private_key_pem: z.string().optional(),
    signing_algorithm: z.string().optional(),
    /** auth/cross-app-access-complete-flow (SEP-990): the enterprise IdP, its client id and the person's ID token. */
    idp_client_id: z.string().optional(),
    idp_id_token: z.string().optional(),
    idp_issuer: z.string().optional(),
    idp_token_endpoint: z.string().optional(),
  })
  .loose();

/** The secret the entry's `oauth.clientSecret` refers to, when the scenario gives a client secret. */
const clientSecretName = 'conformance_client_secret';
/** The secret a cross-app-access entry's `oauth.idp.idToken` refers to (the ID token the scenario's IdP signed). */
const idTokenName = 'conformance_idp_id_token';
/** The secret a client-credentials entry's `oauth.privateKey` refers to (private_key_jwt). */
const privateKeyName = 'conformance_private_key';

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
  // As a person would set it up: the URL, and pre-registered client credentials where the scenario hands some out
  // (the secret in Switchboard's secret store, referenced from the entry).
  const secrets = new FileSecretStore(join(dataDir, 'secrets.json'));
  const crossApp =
    context.client_id !== undefined &&
    context.client_secret !== undefined &&
    context.idp_client_id !== undefined &&
    context.idp_id_token !== undefined &&
    context.idp_issuer !== undefined
      ? {
          grant: 'cross-app-access',
          clientId: context.client_id,
          clientSecret: `\${secret:${clientSecretName}}`,
          // The scenario's IdP metadata is minimal (no response_types_supported): the SDK's OIDC discovery refuses it, so the entry names the token endpoint.
          idp: { tokenEndpoint: context.idp_token_endpoint ?? context.idp_issuer, clientId: context.idp_client_id, idToken: `\${secret:${idTokenName}}` },
        }
      : undefined;
  if (crossApp && context.idp_id_token !== undefined) secrets.set(idTokenName, context.idp_id_token);
  // auth/client-credentials-basic and -jwt (SEP-1046): a machine-to-machine entry, `"grant": "client_credentials"`,
  // with the client secret (client_secret_basic) or the PEM private key (private_key_jwt) in the secret store.
  const clientCredentials =
    context.client_id !== undefined && (context.name === 'auth/client-credentials-basic' || context.name === 'auth/client-credentials-jwt')
      ? {
          grant: 'client_credentials',
          clientId: context.client_id,
          ...(context.private_key_pem !== undefined
            ? {
                privateKey: `\${secret:${privateKeyName}}`,
                ...(context.signing_algorithm !== undefined ? { signingAlgorithm: context.signing_algorithm } : {}),
              }
            : context.client_secret !== undefined
              ? { clientSecret: `\${secret:${clientSecretName}}` }
              : {}),
        }
      : undefined;
  if (clientCredentials && context.private_key_pem !== undefined) secrets.set(privateKeyName, context.private_key_pem);
  const oauth =
    crossApp ??
    clientCredentials ??
    (context.client_id !== undefined && context.name === 'auth/pre-registration'
      ? { clientId: context.client_id, ...(context.client_secret !== undefined ? { clientSecret: `\${secret:${clientSecretName}}` } : {}) }
      : undefined);
  if (oauth && context.client_secret !== undefined) secrets.set(clientSecretName, context.client_secret);
  writeFileSync(configPath, `${JSON.stringify({ mcpServers: { [serverName]: { url, ...(oauth ? { oauth } : {}) } } }, null, 2)}\n`);
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
      secrets,
      // The OS opener of the app, here the test person's browser: it returns once "launched", as a real one does.
      openAuthorizationUrl: (href) => {
        // The scripted browser of the OAuth tests: follows every redirect (keeping cookies) to the loopback listener.
        void followInBrowser(href).catch((error: unknown) => log(`the browser failed: ${messageOf(error)}`));
        return Promise.resolve(true);
      },
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

async function currentView(host: Host): Promise<ServerView | undefined> {
  await host.settled(serverName);
  return (await host.api['servers:list']()).find((v) => v.name === serverName);
}

/** What makes the app show Sign in: the server needs a sign-in, or asked for more access than was granted (step-up). */
function needsSignIn(view: ServerView): boolean {
  return view.status === 'needs-login' || (view.auth?.stepUpScopes?.length ?? 0) > 0;
}

/** A server that needs sign-in: the person presses Sign in and completes it in the browser (at most `rounds` times). */
async function signIn(host: Host, view: ServerView | undefined, rounds: number): Promise<ServerView | undefined> {
  let current = view;
  for (let round = 0; round < rounds && current !== undefined && needsSignIn(current); round++) {
    log(
      `needs sign-in${current.auth?.issuerHost ? ` at ${current.auth.issuerHost}` : ''}${current.auth?.scopes ? ` (${current.auth.scopes.join(' ')})` : ''}: the test person signs in`,
    );
    try {
      // Through the channel the app's Sign in button uses; the URL reaches the person's browser (below).
      const result = await host.api['auth:login'](serverName);
      log(`sign-in: ${result.outcome}`);
    } catch (error) {
      log(`sign-in failed: ${messageOf(error)}`);
      return current;
    }
    current = await currentView(host);
  }
  return current;
}

/** What the person does with the server once Switchboard has connected to it. */
async function act(host: Host, context: z.infer<typeof contextSchema>): Promise<number> {
  const view = await signIn(host, await currentView(host), 2);
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
    const callOnce = () => host.api['tools:call']({ server: serverName, tool: call.name, args: call.arguments, callId: randomUUID() });
    try {
      let result;
      try {
        result = await callOnce();
      } catch (error) {
        // Asked for more access (step-up): sign in again, then the same call once more.
        const before = await currentView(host);
        if (before === undefined || !needsSignIn(before)) throw error;
        const after = await signIn(host, before, 1);
        if (after?.status !== 'ready') throw error;
        result = await callOnce();
      }
      log(`called ${call.name}${result.isError ? ' (the tool reported an error)' : ''}`);
    } catch (error) {
      fail(`calling ${call.name}`, error);
    }
  }
  await browseFeatures(host, view, fail);
  return failures > 0 ? 1 : 0;
}

/** Resources and prompts, where the server offers them: list, read each resource, get each prompt. */
async function browseFeatures(host: Host, view: ServerView, fail: (what: string, error: unknown) => void): Promise<void> {
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
