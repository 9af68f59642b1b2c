import { z } from 'zod';

/** Argument tuples of the MCP Apps channels (see ../contract/apps.ts). */

export const appsListRequestSchema = z.object({ server: z.string().min(1).max(200).optional() }).default({});
export const appsReadRequestSchema = z.object({ server: z.string().min(1).max(200), tool: z.string().min(1).max(500) });

export const appsChannels = {
  'apps:list': z.tuple([appsListRequestSchema]),
  'apps:read': z.tuple([appsReadRequestSchema]),
} as const;
