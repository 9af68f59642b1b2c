import { createHash } from 'node:crypto';
import type { OAuthDiscoveryState, StoredOAuthClientInformation, StoredOAuthTokens } from '@modelcontextprotocol/client';
import { z } from 'zod';
import type { SecretStore } from '../secrets/store';

/*
 * Where OAuth state lives: the secret store (the OS keychain in the desktop app, a 0600 file elsewhere), never the
 * config, the trace, the logs or a debug bundle. Each record is one secret whose value is a JSON document:
 *
 *   oauth.client.<h(issuer, resource)>           the client registration with that authorization server
 *   oauth.tokens.<h(issuer, resource, client)>   the tokens (and when they were saved, for the expiry)
 *   oauth.flow.<h(issuer, resource, client)>     a sign-in in progress: the PKCE code verifier and the state
 *   oauth.resource.<h(resource)>                 which issuer and client the resource is signed in with now, and the
 *                                                SDK's discovery state (no secret in it, but kept with the rest)
 *
 * The keys are hashes so that a secret name stays within the store's alphabet and length.
 */

const prefix = 'oauth.';

function hash(...parts: string[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 32);
}

const tokensRecord = z.object({
  tokens: z.looseObject({ access_token: z.string(), token_type: z.string() }),
  savedAt: z.number(),
});
const clientRecord = z.object({ client: z.looseObject({ client_id: z.string() }) });
const flowRecord = z.object({ codeVerifier: z.string().optional(), state: z.string().optional(), startedAt: z.number() });
const resourceRecord = z.object({
  resource: z.string(),
  issuer: z.string().optional(),
  clientId: z.string().optional(),
  discovery: z.looseObject({ authorizationServerUrl: z.string() }).optional(),
  /** Scopes asked for at the last sign-in (step-up adds to them). */
  scope: z.string().optional(),
});

export type TokensRecord = { tokens: StoredOAuthTokens; savedAt: number };
export type ResourceRecord = Omit<z.infer<typeof resourceRecord>, 'discovery'> & { discovery?: OAuthDiscoveryState };

/** The names of the values inside OAuth records that are secrets (for the trace's redaction by value). */
const secretFields = ['access_token', 'refresh_token', 'id_token', 'client_secret', 'codeVerifier', 'registration_access_token'];

export class OAuthStore {
  /** Parsed records by secret name, valid while the stored text is the same (tokens are read before every request). */
  private readonly parsed = new Map<string, { raw: string; value: unknown }>();

  constructor(private readonly secrets: SecretStore) {}

  private read<T>(name: string, schema: z.ZodType<T>): T | undefined {
    const raw = this.secrets.get(name);
    if (raw === undefined) return undefined;
    const cached = this.parsed.get(name);
    if (cached?.raw === raw) return cached.value as T | undefined;
    let value: T | undefined;
    try {
      const result = schema.safeParse(JSON.parse(raw));
      value = result.success ? result.data : undefined;
    } catch {
      value = undefined;
    }
    this.parsed.set(name, { raw, value });
    return value;
  }

  private write(name: string, value: unknown): void {
    this.secrets.set(name, JSON.stringify(value));
  }

  resource(resource: string): ResourceRecord | undefined {
    return this.read(`${prefix}resource.${hash(resource)}`, resourceRecord) as ResourceRecord | undefined;
  }

  updateResource(resource: string, change: Partial<Omit<ResourceRecord, 'resource'>>): ResourceRecord {
    const next: ResourceRecord = { ...this.resource(resource), ...change, resource };
    for (const key of Object.keys(next) as Array<keyof ResourceRecord>) if (next[key] === undefined) delete next[key];
    this.write(`${prefix}resource.${hash(resource)}`, next);
    return next;
  }

  client(issuer: string, resource: string): StoredOAuthClientInformation | undefined {
    return this.read(`${prefix}client.${hash(issuer, resource)}`, clientRecord)?.client as StoredOAuthClientInformation | undefined;
  }

  saveClient(issuer: string, resource: string, client: StoredOAuthClientInformation): void {
    this.write(`${prefix}client.${hash(issuer, resource)}`, { client });
  }

  deleteClient(issuer: string, resource: string): void {
    this.secrets.delete(`${prefix}client.${hash(issuer, resource)}`);
  }

  tokens(issuer: string, resource: string, clientId: string): TokensRecord | undefined {
    return this.read(`${prefix}tokens.${hash(issuer, resource, clientId)}`, tokensRecord) as TokensRecord | undefined;
  }

  saveTokens(issuer: string, resource: string, clientId: string, tokens: StoredOAuthTokens, savedAt = Date.now()): void {
    this.write(`${prefix}tokens.${hash(issuer, resource, clientId)}`, { tokens, savedAt });
  }

  deleteTokens(issuer: string, resource: string, clientId: string): boolean {
    return this.secrets.delete(`${prefix}tokens.${hash(issuer, resource, clientId)}`);
  }

  flow(issuer: string, resource: string, clientId: string): z.infer<typeof flowRecord> | undefined {
    return this.read(`${prefix}flow.${hash(issuer, resource, clientId)}`, flowRecord);
  }

  saveFlow(issuer: string, resource: string, clientId: string, flow: z.infer<typeof flowRecord>): void {
    this.write(`${prefix}flow.${hash(issuer, resource, clientId)}`, flow);
  }

  deleteFlow(issuer: string, resource: string, clientId: string): void {
    this.secrets.delete(`${prefix}flow.${hash(issuer, resource, clientId)}`);
  }

  /** Forgets the resource's sign-in: its tokens, a flow in progress, and which issuer/client it used. */
  forgetResource(resource: string): void {
    const record = this.resource(resource);
    if (record?.issuer !== undefined && record.clientId !== undefined) {
      this.deleteTokens(record.issuer, resource, record.clientId);
      this.deleteFlow(record.issuer, resource, record.clientId);
    }
    this.secrets.delete(`${prefix}resource.${hash(resource)}`);
  }
}

/** Whether a secret name is one of the OAuth records (kept out of the Secrets list a person edits). */
export function isOAuthSecretName(name: string): boolean {
  return name.startsWith(prefix);
}

/** Whether a secret name is a sign-in's tokens (written when a sign-in has finished, or a refresh). */
export function isOAuthTokensName(name: string): boolean {
  return name.startsWith(`${prefix}tokens.`);
}

/**
 * The secret values inside the OAuth records (tokens, client secrets, code verifiers): the trace and the debug
 * bundle redact these wherever they occur, as they do the store's plain values.
 */
export function oauthSecretValues(secrets: Pick<SecretStore, 'list' | 'get'>): string[] {
  const values: string[] = [];
  const visit = (value: unknown): void => {
    if (typeof value !== 'object' || value === null) return;
    for (const [key, inner] of Object.entries(value)) {
      if (typeof inner === 'string' && secretFields.includes(key)) values.push(inner);
      else visit(inner);
    }
  };
  for (const name of secrets.list()) {
    if (!isOAuthSecretName(name)) continue;
    try {
      visit(JSON.parse(secrets.get(name) ?? 'null'));
    } catch {
      // not a record of ours
    }
  }
  return values;
}
