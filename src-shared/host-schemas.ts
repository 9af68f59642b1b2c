import { z } from 'zod';
import { serverEntrySchema } from './config-schema';

/** The argument schemas main (IPC gateway, headless bridge) parses untrusted calls with: one zod tuple per channel. */

export const callToolRequestSchema = z.object({
  server: z.string().min(1),
  tool: z.string().min(1),
  args: z.record(z.string(), z.unknown()).default({}),
  /** A caller-chosen id; `tools:cancel` with it aborts the call (sends notifications/cancelled). */
  callId: z.string().min(1).max(200).optional(),
});
export const importSourceSchema = z.string().min(1).max(4096);

/**
 * The contract: one entry per channel, `noun:verb`. `args` is a zod tuple that main (and the headless bridge)
 * parse before doing work, since the renderer is untrusted. Adding an entry is a compile error in every
 * implementation until it is handled.
 */
export const hostChannels = {
  'app:info': z.tuple([]),
  'servers:list': z.tuple([]),
  'servers:restart': z.tuple([z.string().min(1)]),
  'tools:call': z.tuple([callToolRequestSchema]),
  'tools:cancel': z.tuple([z.string().min(1)]),
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
  'secrets:list': z.tuple([]),
  'secrets:set': z.tuple([z.string().min(1).max(128), z.string().max(64 * 1024)]),
  'secrets:delete': z.tuple([z.string().min(1)]),
  'shell:open': z.tuple([z.enum(['config', 'logs'])]),
} as const;

