import { z } from 'zod';

/** Argument tuples of the MCP Apps channels (see ../contract/apps.ts). */

export const appsListRequestSchema = z.object({ server: z.string().min(1).max(200).optional() }).default({});
export const appsReadRequestSchema = z.object({ server: z.string().min(1).max(200), tool: z.string().min(1).max(500) });

const frameIdSchema = z.string().regex(/^[A-Za-z0-9_-]{8,100}$/, 'a frame id from apps:open');
export const appPermissionNameSchema = z.enum(['camera', 'microphone', 'geolocation', 'clipboardWrite']);

export const appsCallToolRequestSchema = z.object({
  frameId: frameIdSchema,
  tool: z.string().min(1).max(500),
  args: z.record(z.string(), z.unknown()).default({}),
  /** Chosen by the renderer, unique per running call (progress, tools:cancel). */
  callId: z.string().min(1).max(200),
});
export const appsReadResourceRequestSchema = z.object({ frameId: frameIdSchema, uri: z.string().min(1).max(4096) });
export const appsLogRequestSchema = z.object({
  frameId: frameIdSchema,
  level: z.enum(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency']),
  logger: z.string().max(200).optional(),
  data: z.unknown(),
});
export const appsGrantRequestSchema = z.object({ server: z.string().min(1).max(200), permissions: z.array(appPermissionNameSchema).max(4) });

/** The MCP `CreateMessageRequest` params as the app sent them; the host checks them against the spec's schema. */
export const appsSampleRequestSchema = z.object({ frameId: frameIdSchema, params: z.record(z.string(), z.unknown()) });

export const appsChannels = {
  'apps:list': z.tuple([appsListRequestSchema]),
  'apps:read': z.tuple([appsReadRequestSchema]),
  'apps:open': z.tuple([appsReadRequestSchema]),
  'apps:call-tool': z.tuple([appsCallToolRequestSchema]),
  'apps:read-resource': z.tuple([appsReadResourceRequestSchema]),
  'apps:log': z.tuple([appsLogRequestSchema]),
  'apps:grant': z.tuple([appsGrantRequestSchema]),
  'apps:close': z.tuple([z.object({ frameId: frameIdSchema })]),
  'apps:sample': z.tuple([appsSampleRequestSchema]),
} as const;
