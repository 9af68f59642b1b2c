import { z } from 'zod';
import type { RegistryServerView, RegistrySearchView } from '../../../src-shared/contract/install';
import { CoreError, messageOf } from '../errors';

/*
 * A client of the MCP Registry API v0.1 (`GET /v0.1/servers?search=&cursor=&limit=`,
 * `GET /v0.1/servers/{name}/versions/{version|latest}`) and the server.json documents it serves (schema 2025-12-11).
 * Everything the registry sends is parsed with zod; keys this version does not know are kept but not used.
 */

export const officialRegistry = 'https://registry.modelcontextprotocol.io';

const inputFields = {
  description: z.string().optional(),
  isRequired: z.boolean().optional(),
  isSecret: z.boolean().optional(),
  format: z.string().optional(),
  value: z.string().optional(),
  default: z.string().optional(),
  choices: z.array(z.string()).optional(),
  placeholder: z.string().optional(),
};
export const registryInputSchema = z.looseObject(inputFields);
const withVariables = { ...inputFields, variables: z.record(z.string(), registryInputSchema).optional() };

export const keyValueInputSchema = z.looseObject({ name: z.string().min(1), ...withVariables });
export const argumentSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('positional'), valueHint: z.string().optional(), isRepeated: z.boolean().optional(), ...withVariables }),
  z.looseObject({ type: z.literal('named'), name: z.string().min(1), isRepeated: z.boolean().optional(), ...withVariables }),
]);
export type RegistryArgument = z.infer<typeof argumentSchema>;
export type KeyValueInput = z.infer<typeof keyValueInputSchema>;

export const packageSchema = z.looseObject({
  registryType: z.string().min(1),
  registryBaseUrl: z.string().optional(),
  identifier: z.string().min(1),
  version: z.string().optional(),
  fileSha256: z.string().optional(),
  runtimeHint: z.string().optional(),
  transport: z.looseObject({ type: z.string(), url: z.string().optional() }).optional(),
  runtimeArguments: z.array(argumentSchema).optional(),
  packageArguments: z.array(argumentSchema).optional(),
  environmentVariables: z.array(keyValueInputSchema).optional(),
});
export type RegistryPackage = z.infer<typeof packageSchema>;

export const remoteSchema = z.looseObject({
  type: z.string().min(1),
  url: z.string().min(1),
  headers: z.array(keyValueInputSchema).optional(),
  variables: z.record(z.string(), registryInputSchema).optional(),
});
export type RegistryRemote = z.infer<typeof remoteSchema>;

export const serverJsonSchema = z.looseObject({
  $schema: z.string().optional(),
  name: z.string().min(1),
  title: z.string().optional(),
  description: z.string().default(''),
  version: z.string().min(1),
  repository: z.looseObject({ url: z.string().optional(), source: z.string().optional() }).optional(),
  websiteUrl: z.string().optional(),
  packages: z.array(packageSchema).optional(),
  remotes: z.array(remoteSchema).optional(),
});
export type ServerJson = z.infer<typeof serverJsonSchema>;

const officialMetaKey = 'io.modelcontextprotocol.registry/official';
const officialMetaSchema = z.looseObject({
  status: z.enum(['active', 'deprecated', 'deleted']).catch('active').optional(),
  statusMessage: z.string().optional(),
  isLatest: z.boolean().optional(),
  publishedAt: z.string().optional(),
});

export const serverResponseSchema = z.looseObject({
  server: serverJsonSchema,
  _meta: z.looseObject({ [officialMetaKey]: officialMetaSchema.optional() }).optional(),
});
const listResponseSchema = z.looseObject({
  servers: z.array(z.unknown()),
  metadata: z.looseObject({ nextCursor: z.string().nullable().optional(), count: z.number().optional() }).optional(),
});

/** A server.json with what the registry says about it. */
export interface RegistryServer {
  server: ServerJson;
  status: 'active' | 'deprecated' | 'deleted';
  statusMessage?: string;
}

function fromResponse(raw: z.infer<typeof serverResponseSchema>): RegistryServer {
  const meta = raw._meta?.[officialMetaKey];
  // The schema's status also sat on the server itself in earlier revisions.
  const legacy = (raw.server as Record<string, unknown>).status;
  const status = meta?.status ?? (legacy === 'deprecated' || legacy === 'deleted' ? legacy : 'active');
  return { server: raw.server, status, ...(meta?.statusMessage !== undefined ? { statusMessage: meta.statusMessage } : {}) };
}

/** The registry's base URL, checked: https, or http on loopback (a local or test registry). */
export function registryBase(url: string | undefined): string {
  const raw = url ?? officialRegistry;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new CoreError('invalid-argument', `"${raw}" is not a registry URL; use one like ${officialRegistry}.`);
  }
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(parsed.hostname);
  if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && loopback)) {
    throw new CoreError('invalid-argument', `The registry ${raw} must be https (plain http only on 127.0.0.1 / localhost).`);
  }
  return parsed.href.replace(/\/+$/, '');
}

export interface RegistryClientOptions {
  registry?: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

export class RegistryClient {
  readonly base: string;
  private readonly fetchImpl: typeof fetch;
  private readonly timeoutMs: number;

  constructor(options: RegistryClientOptions = {}) {
    this.base = registryBase(options.registry);
    this.fetchImpl = options.fetch ?? fetch;
    this.timeoutMs = options.timeoutMs ?? 15_000;
  }

  private async getJson(path: string): Promise<{ status: number; body: unknown }> {
    const url = `${this.base}${path}`;
    let response: Response;
    try {
      response = await this.fetchImpl(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(this.timeoutMs) });
    } catch (error) {
      throw new CoreError(
        'request-failed',
        `Cannot reach the MCP Registry at ${this.base} (${messageOf(error)}). Check the network, or pass another --registry URL.`,
        {
          data: { reason: 'registry-unreachable', registry: this.base, detail: messageOf(error) },
        },
      );
    }
    if (response.status === 404) return { status: 404, body: undefined };
    if (!response.ok) {
      throw new CoreError('request-failed', `The MCP Registry at ${this.base} answered ${response.status} ${response.statusText} for ${path}.`, {
        data: { reason: 'registry-http', registry: this.base, httpStatus: response.status, path },
      });
    }
    try {
      return { status: response.status, body: await response.json() };
    } catch {
      throw new CoreError('request-failed', `The MCP Registry at ${this.base} sent something that is not JSON for ${path}.`, {
        data: { reason: 'registry-not-json', registry: this.base, path },
      });
    }
  }

  /** One page of servers matching `search` (by name), newest versions only. Entries that do not parse are left out. */
  async search(search: string | undefined, cursor?: string, limit = 30): Promise<{ servers: RegistryServer[]; nextCursor?: string; skipped: number }> {
    const query = new URLSearchParams();
    if (search) query.set('search', search);
    if (cursor) query.set('cursor', cursor);
    query.set('limit', String(limit));
    query.set('version', 'latest');
    const { body } = await this.getJson(`/v0.1/servers?${query.toString()}`);
    const list = listResponseSchema.safeParse(body);
    if (!list.success)
      throw new CoreError(
        'request-failed',
        `The MCP Registry at ${this.base} sent a server list this version does not understand (${list.error.issues[0]?.message ?? 'invalid'}).`,
      );
    const servers: RegistryServer[] = [];
    let skipped = 0;
    for (const item of list.data.servers) {
      const parsed = serverResponseSchema.safeParse(item);
      if (parsed.success) servers.push(fromResponse(parsed.data));
      else skipped++;
    }
    const nextCursor = list.data.metadata?.nextCursor ?? undefined;
    return { servers, ...(nextCursor ? { nextCursor } : {}), skipped };
  }

  /** One server by its exact registry name (latest version unless one is named). */
  async get(name: string, version = 'latest'): Promise<RegistryServer> {
    const { status, body } = await this.getJson(`/v0.1/servers/${encodeURIComponent(name)}/versions/${encodeURIComponent(version)}`);
    if (status === 404) {
      throw new CoreError(
        'invalid-argument',
        `The MCP Registry at ${this.base} has no server named "${name}"${version !== 'latest' ? ` at version ${version}` : ''}. Find the exact name with: switchboard registry search TERM`,
        {
          data: { reason: 'registry-no-server', registry: this.base, name },
        },
      );
    }
    const parsed = serverResponseSchema.safeParse(body);
    if (!parsed.success) {
      throw new CoreError(
        'request-failed',
        `The MCP Registry's server.json for "${name}" does not validate: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`,
      );
    }
    return fromResponse(parsed.data);
  }
}

/** Why a registry entry is refused before anything else is looked at (deprecated, deleted), or undefined. */
export function statusRefusal(entry: RegistryServer): string | undefined {
  if (entry.status === 'active') return undefined;
  const why = entry.statusMessage ? ` (${entry.statusMessage})` : '';
  return entry.status === 'deleted'
    ? `"${entry.server.name}" ${entry.server.version} was deleted from the registry${why}; it is not installed.`
    : `"${entry.server.name}" ${entry.server.version} is deprecated in the registry${why}; it is not installed. Look for its replacement with: switchboard registry search TERM`;
}

export function kindsOf(server: ServerJson): string[] {
  return [...(server.packages ?? []).map((p) => p.registryType), ...(server.remotes ?? []).map(() => 'remote')];
}

export function registryServerView(entry: RegistryServer, refused?: string): RegistryServerView {
  const s = entry.server;
  return {
    name: s.name,
    ...(s.title !== undefined ? { title: s.title } : {}),
    description: s.description,
    version: s.version,
    status: entry.status,
    ...(entry.statusMessage !== undefined ? { statusMessage: entry.statusMessage } : {}),
    kinds: kindsOf(s),
    ...(s.repository?.url !== undefined ? { repositoryUrl: s.repository.url } : {}),
    ...(s.websiteUrl !== undefined ? { websiteUrl: s.websiteUrl } : {}),
    ...((statusRefusal(entry) ?? refused) !== undefined ? { refused: statusRefusal(entry) ?? refused } : {}),
  };
}

export type { RegistrySearchView };
