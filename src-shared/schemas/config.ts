import { z } from 'zod';
import { logLevels } from '../contract/logging';

/** Transport names a config entry may force with `type`. */
export const transportTypes = ['stdio', 'http', 'streamable-http', 'sse'] as const;

/**
 * The protocol revisions a server entry may be pinned to (`protocolVersion`), newest first: the 2026-07-28 era
 * (`server/discover`) and the `initialize` era's revisions the SDK speaks.
 */
export const protocolRevisions = ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;
export type ProtocolRevision = (typeof protocolRevisions)[number];
/** `protocolVersion`'s values: `auto` (negotiate; the default) or one revision. */
export const protocolVersionChoices = ['auto', ...protocolRevisions] as const;
export type ProtocolVersionChoice = (typeof protocolVersionChoices)[number];

/** The revision an entry is pinned to, or undefined for `auto` (negotiated). */
export function pinnedRevision(choice: ProtocolVersionChoice | undefined): ProtocolRevision | undefined {
  return choice === undefined || choice === 'auto' ? undefined : choice;
}

const stringRecord = z.record(z.string(), z.string({ error: 'must be a string' }));

const secretRef = (what: string) =>
  z
    .string({ error: 'must be a string' })
    .regex(/^\$\{secret:[A-Za-z_][A-Za-z0-9_.-]*\}$/, `must be a \${secret:NAME} reference (${what} never sits in this file)`);

/** `oauth.idp` of a `"grant": "cross-app-access"` entry (SEP-990): the enterprise IdP that exchanges the person's ID token for an ID-JAG. */
export const crossAppIdpSchema = z.strictObject({
  issuer: z
    .url({ error: "must be the IdP's issuer URL", protocol: /^https?$/ })
    .optional()
    .describe("The enterprise IdP's issuer: its token endpoint is found by OAuth / OIDC discovery. Give this or tokenEndpoint."),
  tokenEndpoint: z
    .url({ error: "must be the IdP's token endpoint URL", protocol: /^https?$/ })
    .optional()
    .describe("The IdP's token endpoint (RFC 8693 token exchange), instead of discovery from issuer."),
  clientId: z
    .string({ error: 'must be a string (the client id the IdP issued)' })
    .min(1, 'must not be empty')
    .describe('The client id Switchboard has at the IdP.'),
  clientSecret: secretRef('an IdP client secret').optional().describe('The client secret at the IdP, as a ${secret:NAME} reference (absent: a public client).'),
  idToken: secretRef('an ID token').describe(
    "The person's OpenID Connect ID token from the IdP, as a ${secret:NAME} reference. Switchboard does not sign in at the IdP itself: keep the secret current.",
  ),
});
export type CrossAppIdp = z.infer<typeof crossAppIdpSchema>;

/** A remote entry's OAuth settings (all optional: discovery and registration fill in the rest). */
export const oauthEntrySchema = z.strictObject({
  clientId: z
    .string({ error: 'must be a string (the client id the authorization server issued)' })
    .min(1, 'must not be empty')
    .optional()
    .describe('A client id registered with the authorization server beforehand (skips dynamic registration).'),
  clientSecret: z
    .string({ error: 'must be a string' })
    .regex(/^\$\{secret:[A-Za-z_][A-Za-z0-9_.-]*\}$/, 'must be a ${secret:NAME} reference (a client secret never sits in this file)')
    .optional()
    .describe('The pre-registered client secret, as a ${secret:NAME} reference.'),
  scopes: z
    .array(z.string().regex(/^[\x21\x23-\x5B\x5D-\x7E]+$/, 'must be one OAuth scope (no spaces or quotes)'), { error: 'must be an array of scope names' })
    .optional()
    .describe('Scopes to ask for (default: what the server says it needs).'),
  redirectPort: z
    .number({ error: 'must be a port number' })
    .int()
    .min(1, 'must be 1-65535')
    .max(65535, 'must be 1-65535')
    .optional()
    .describe('The loopback port of the redirect (http://127.0.0.1:PORT/callback), for clients registered with a fixed one.'),
  issuer: z
    .url({ error: "must be the authorization server's issuer URL", protocol: /^https?$/ })
    .optional()
    .describe('The authorization server the clientId belongs to: its credentials are sent to no other (SEP-2352).'),
  grant: z
    .enum(['authorization_code', 'client_credentials', 'cross-app-access'], {
      error: 'must be "authorization_code" (a person signs in), "client_credentials" (machine to machine) or "cross-app-access" (enterprise-managed, SEP-990)',
    })
    .optional()
    .describe(
      "authorization_code (default): a person signs in in the browser. client_credentials: the client itself gets tokens (needs clientId, and clientSecret or privateKey). cross-app-access: the enterprise IdP exchanges the person's ID token for an ID-JAG (RFC 8693), which the server's authorization server trades for tokens (RFC 7523 JWT bearer; needs clientId, clientSecret and idp).",
    ),
  idp: crossAppIdpSchema.optional().describe('cross-app-access only: the enterprise IdP (issuer or tokenEndpoint, clientId, clientSecret, idToken).'),
  privateKey: z
    .string({ error: 'must be a string' })
    .regex(/^\$\{secret:[A-Za-z_][A-Za-z0-9_.-]*\}$/, 'must be a ${secret:NAME} reference (a key never sits in this file)')
    .optional()
    .describe('client_credentials with private_key_jwt: the PEM private key that signs the client assertion, as a ${secret:NAME} reference.'),
  signingAlgorithm: z
    .string({ error: 'must be a JWS algorithm name such as ES256 or RS256' })
    .regex(/^[A-Z]{2}\d{3}$|^EdDSA$/, 'must be a JWS algorithm name such as ES256 or RS256')
    .optional()
    .describe('The JWS algorithm of the private_key_jwt assertion (default ES256).'),
});
export type OAuthEntry = z.infer<typeof oauthEntrySchema>;

/** A stdio server's sandbox: `true` is the defaults (network allowed); paths are relative to the config file's folder, `~/` is the home folder. */
export const sandboxObjectSchema = z.strictObject({
  allowRead: z
    .array(z.string({ error: 'must be a path' }), { error: 'must be an array of paths' })
    .optional()
    .describe('Folders or files the server may read (besides the system, its package folder and cwd).'),
  allowWrite: z
    .array(z.string({ error: 'must be a path' }), { error: 'must be an array of paths' })
    .optional()
    .describe('Folders or files the server may write (besides a private /tmp).'),
  network: z.boolean({ error: 'must be true or false' }).optional().describe('false: no network at all (default true).'),
});
export const sandboxSettingSchema = z.union([z.boolean(), sandboxObjectSchema], {
  error: 'must be true, false or {"allowRead": [...], "allowWrite": [...], "network": true|false}',
});
export type SandboxSetting = z.infer<typeof sandboxSettingSchema>;

/** Who answers a server's sampling requests: ask a person (default), allow without asking, or never. */
export const samplingModes = ['ask', 'allow', 'never'] as const;
export const samplingEntrySchema = z.strictObject({
  mode: z
    .enum(samplingModes, { error: `must be one of ${samplingModes.join(', ')}` })
    .optional()
    .describe('ask (default): a person approves each request and the answer; allow: run without asking; never: decline.'),
  perMinute: z
    .number({ error: 'must be a number of requests' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .optional()
    .describe('At most this many sampling requests per minute; more are declined.'),
});
export type SamplingEntry = z.infer<typeof samplingEntrySchema>;

/** Folders a server may work in (`roots/list`): paths (relative to the config file's folder, `~/` the home folder) or file:// URIs. */
export const rootsSchema = z.array(
  z
    .string({ error: 'must be a folder path or file:// URI' })
    .min(1, 'must not be empty')
    .refine((v) => !/^[a-z][a-z0-9+.-]*:\/\//i.test(v) || v.toLowerCase().startsWith('file://'), {
      message: 'must be a folder path or a file:// URI',
      params: { reason: 'not-folder-or-file-uri' },
    }),
  { error: 'must be an array of folder paths or file:// URIs' },
);

/**
 * One entry of `mcpServers`. Claude-Desktop compatible; keys other hosts use are accepted and unknown keys are
 * kept (looseObject), so a user's file round-trips.
 */
export const serverEntrySchema = z
  .looseObject({
    command: z
      .string({ error: 'must be a string (the program to start)' })
      .min(1, 'must not be empty')
      .optional()
      .describe('A stdio server: the program to start (looked up in PATH).'),
    args: z
      .array(z.string({ error: 'must be a string' }), { error: 'must be an array of strings' })
      .optional()
      .describe('Arguments for the program.'),
    env: stringRecord.optional().describe('Environment variables for this server only. Values may use ${env:NAME}, ${secret:NAME}, ${input:ID}.'),
    cwd: z.string({ error: 'must be a string (a directory path)' }).optional().describe('Working directory (relative to this file).'),
    url: z
      .url({ error: 'must be an http(s) URL', protocol: /^https?$/ })
      .optional()
      .describe('A remote server: Streamable HTTP, falling back to legacy HTTP+SSE.'),
    headers: stringRecord.optional().describe('HTTP headers for a remote server (e.g. Authorization). Values may use references.'),
    type: z
      .enum(transportTypes, { error: `must be one of ${transportTypes.join(', ')}` })
      .optional()
      .describe('Force the transport.'),
    disabled: z.boolean({ error: 'must be true or false' }).optional().describe('true keeps the server stopped.'),
    timeout: z
      .number({ error: 'must be a number of milliseconds' })
      .int()
      .positive()
      .optional()
      .describe('Milliseconds for connecting and for each request (reset by progress).'),
    envFile: z.string({ error: 'must be a string (a path to a dotenv file)' }).optional().describe('A dotenv file whose values are added to env.'),
    autoApprove: z
      .array(z.string(), { error: 'must be an array of tool names' })
      .optional()
      .describe('Accepted for other hosts (Cline, Windsurf) and kept as written; Switchboard does not act on it: its chat asks per its own approval setting.'),
    oauth: oauthEntrySchema
      .optional()
      .describe(
        'OAuth sign-in for a remote server: pre-registered client credentials, scopes and the loopback redirect port. Tokens are kept as secrets, never here.',
      ),
    sandbox: sandboxSettingSchema
      .optional()
      .describe(
        'Run this stdio server in a sandbox (bubblewrap on Linux, sandbox-exec on macOS): true, false (overrides the settings default), or {allowRead, allowWrite, network}. Where no sandbox is available the server does not start.',
      ),
    logLevel: z
      .enum(logLevels, { error: `must be one of ${logLevels.join(', ')}` })
      .optional()
      .describe('The least severe server log message to ask for (logging/setLevel); default info.'),
    protocolVersion: z
      .enum(protocolVersionChoices, { error: `must be one of ${protocolVersionChoices.join(', ')}` })
      .optional()
      .describe(
        'The MCP protocol revision: "auto" (default) negotiates (2026-07-28 where the server offers it, falling back to 2025-11-25 for a server whose requests to the host need the older era); a revision pins it.',
      ),
    roots: rootsSchema
      .optional()
      .describe(
        'Folders this server may work in (roots/list): paths relative to this file, ~/ paths, or file:// URIs. Changing them tells the server without a restart.',
      ),
    sampling: samplingEntrySchema.optional().describe('Sampling requests from this server: {"mode": "ask"|"allow"|"never", "perMinute": N}. Default ask.'),
  })
  .superRefine((entry, ctx) => {
    if (entry.command === undefined && entry.url === undefined) {
      ctx.addIssue({
        code: 'custom',
        message: 'needs either "command" (a program to start) or "url" (a remote server)',
        params: { reason: 'needs-command-or-url' },
      });
    } else if (entry.command !== undefined && entry.url !== undefined) {
      ctx.addIssue({ code: 'custom', message: 'has both "command" and "url"; keep one', params: { reason: 'command-and-url' } });
    }
    if (entry.type === 'stdio' && entry.command === undefined) {
      ctx.addIssue({ code: 'custom', path: ['type'], message: 'is "stdio" but the entry has no "command"', params: { reason: 'stdio-without-command' } });
    }
    if (entry.sandbox !== undefined && entry.url !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['sandbox'],
        message: 'is for stdio servers ("command"); a remote server runs elsewhere',
        params: { reason: 'sandbox-on-remote' },
      });
    }
    if (entry.oauth !== undefined && entry.url === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['oauth'],
        message: 'is for remote servers ("url"); a stdio server gets its credentials through env',
        params: { reason: 'oauth-on-stdio' },
      });
    }
    if (entry.oauth?.clientSecret !== undefined && entry.oauth.clientId === undefined) {
      ctx.addIssue({ code: 'custom', path: ['oauth', 'clientSecret'], message: 'needs "clientId" beside it', params: { reason: 'secret-without-client-id' } });
    }
    if (
      entry.oauth?.grant === 'client_credentials' &&
      (entry.oauth.clientId === undefined || (entry.oauth.clientSecret === undefined && entry.oauth.privateKey === undefined))
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['oauth', 'grant'],
        message: 'is "client_credentials", which needs "clientId" and either "clientSecret" or "privateKey"',
        params: { reason: 'client-credentials-incomplete' },
      });
    }
    if (entry.oauth?.grant === 'cross-app-access') {
      if (entry.oauth.clientId === undefined || entry.oauth.clientSecret === undefined || entry.oauth.idp === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['oauth', 'grant'],
          message: 'is "cross-app-access", which needs "clientId", "clientSecret" (at the server\'s authorization server) and "idp"',
          params: { reason: 'cross-app-incomplete' },
        });
      } else if (entry.oauth.idp.issuer === undefined && entry.oauth.idp.tokenEndpoint === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['oauth', 'idp'],
          message: 'needs "issuer" or "tokenEndpoint" (where the ID token is exchanged)',
          params: { reason: 'idp-needs-endpoint' },
        });
      }
    } else if (entry.oauth?.idp !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['oauth', 'idp'], message: 'is only for "grant": "cross-app-access"', params: { reason: 'idp-without-cross-app' } });
    }
    if (entry.type !== undefined && entry.type !== 'stdio' && entry.url === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['type'],
        message: `is "${entry.type}" but the entry has no "url"`,
        params: { reason: 'type-without-url', type: entry.type },
      });
    }
  });

export const serversConfigSchema = z.looseObject({
  mcpServers: z.record(z.string().min(1, 'server names must not be empty'), serverEntrySchema, {
    error: 'must be an object mapping server names to their definitions',
  }),
});

export type ServerEntry = z.infer<typeof serverEntrySchema>;
export type ServersConfig = z.infer<typeof serversConfigSchema>;

/** The transport a connection actually uses. */
export type TransportKind = 'stdio' | 'http' | 'sse';

/** How an entry asks to be reached: stdio, or remote with an optional forced transport. */
export function transportOf(entry: ServerEntry): 'stdio' | 'http' | 'sse' | 'auto-remote' {
  if (entry.command !== undefined) return 'stdio';
  if (entry.type === 'sse') return 'sse';
  if (entry.type === 'http' || entry.type === 'streamable-http') return 'http';
  return 'auto-remote';
}

/** Where `config:import-*` reads servers from: a file path or a known client's name. */
export const importSourceSchema = z.string().min(1).max(4096);

/** Argument tuples of the config file's channels: the raw editor, server edits, export and import (see ../contract/config.ts). */
export const configChannels = {
  'config:read': z.tuple([]),
  'config:save': z.tuple([z.object({ text: z.string().max(8 * 1024 * 1024), baseHash: z.string().min(1) })]),
  'servers:upsert': z.tuple([z.object({ name: z.string().min(1).max(200), entry: serverEntrySchema, previousName: z.string().min(1).optional() })]),
  'servers:remove': z.tuple([z.string().min(1)]),
  'servers:set-enabled': z.tuple([z.string().min(1), z.boolean()]),
  'config:export': z.tuple([z.object({ names: z.array(z.string().min(1)).optional() })]),
  'config:import-preview': z.tuple([z.object({ source: importSourceSchema })]),
  'config:import-apply': z.tuple([
    z.object({
      source: importSourceSchema,
      /** The servers to take; conflicting ones only when also in `overwrite`. */
      names: z.array(z.string().min(1)),
      overwrite: z.array(z.string().min(1)).default([]),
      moveSecrets: z.boolean().default(false),
    }),
  ]),
} as const;
