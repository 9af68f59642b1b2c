import { z } from 'zod';
import { logLevels } from './contract/logging';

/** Transport names a config entry may force with `type`. */
export const transportTypes = ['stdio', 'http', 'streamable-http', 'sse'] as const;

const stringRecord = z.record(z.string(), z.string({ error: 'must be a string' }));

/**
 * One entry of `mcpServers`. Claude-Desktop compatible; keys other hosts use are accepted and unknown keys are
 * kept (looseObject), so a user's file round-trips.
 */
export const serverEntrySchema = z
  .looseObject({
    command: z.string({ error: 'must be a string (the program to start)' }).min(1, 'must not be empty').optional().describe('A stdio server: the program to start (looked up in PATH).'),
    args: z.array(z.string({ error: 'must be a string' }), { error: 'must be an array of strings' }).optional().describe('Arguments for the program.'),
    env: stringRecord.optional().describe('Environment variables for this server only. Values may use ${env:NAME}, ${secret:NAME}, ${input:ID}.'),
    cwd: z.string({ error: 'must be a string (a directory path)' }).optional().describe('Working directory (relative to this file).'),
    url: z.url({ error: 'must be an http(s) URL', protocol: /^https?$/ }).optional().describe('A remote server: Streamable HTTP, falling back to legacy HTTP+SSE.'),
    headers: stringRecord.optional().describe('HTTP headers for a remote server (e.g. Authorization). Values may use references.'),
    type: z.enum(transportTypes, { error: `must be one of ${transportTypes.join(', ')}` }).optional().describe('Force the transport.'),
    disabled: z.boolean({ error: 'must be true or false' }).optional().describe('true keeps the server stopped.'),
    timeout: z.number({ error: 'must be a number of milliseconds' }).int().positive().optional().describe('Milliseconds for connecting and for each request (reset by progress).'),
    envFile: z.string({ error: 'must be a string (a path to a dotenv file)' }).optional().describe('A dotenv file whose values are added to env.'),
    autoApprove: z.array(z.string(), { error: 'must be an array of tool names' }).optional().describe('Tools the chat may call without asking.'),
    logLevel: z.enum(logLevels, { error: `must be one of ${logLevels.join(', ')}` }).optional().describe('The least severe server log message to ask for (logging/setLevel); default info.'),
  })
  .superRefine((entry, ctx) => {
    if (entry.command === undefined && entry.url === undefined) {
      ctx.addIssue({ code: 'custom', message: 'needs either "command" (a program to start) or "url" (a remote server)' });
    } else if (entry.command !== undefined && entry.url !== undefined) {
      ctx.addIssue({ code: 'custom', message: 'has both "command" and "url"; keep one' });
    }
    if (entry.type === 'stdio' && entry.command === undefined) {
      ctx.addIssue({ code: 'custom', path: ['type'], message: 'is "stdio" but the entry has no "command"' });
    }
    if (entry.type !== undefined && entry.type !== 'stdio' && entry.url === undefined) {
      ctx.addIssue({ code: 'custom', path: ['type'], message: `is "${entry.type}" but the entry has no "url"` });
    }
  });

export const serversConfigSchema = z.looseObject({
  mcpServers: z.record(
    z.string().min(1, 'server names must not be empty'),
    serverEntrySchema,
    { error: 'must be an object mapping server names to their definitions' },
  ),
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
