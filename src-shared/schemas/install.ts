import { z } from 'zod';

/** Argument tuples of the one-step install channels (results in ../contract/install.ts). */

/** Where an install comes from: a registry entry, a bundle's bytes (a dropped file), or a `switchboard://install` link. */
export const installSourceSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('registry'),
    name: z.string().min(1).max(300),
    version: z.string().min(1).max(100).optional(),
    registry: z
      .url({ protocol: /^https?$/ })
      .max(2048)
      .optional(),
    use: z.enum(['npm', 'pypi', 'oci', 'mcpb', 'remote']).optional(),
  }),
  z.object({
    kind: z.literal('bundle'),
    fileName: z.string().min(1).max(500),
    /** The .mcpb file, base64 (at most ~12 MB of bundle over the bridge). */
    data: z
      .string()
      .min(1)
      .max(16 * 1024 * 1024),
  }),
  z.object({ kind: z.literal('link'), url: z.string().min(1).max(8192) }),
]);

export const installChannels = {
  'registry:search': z.tuple([
    z.object({
      registry: z
        .url({ protocol: /^https?$/ })
        .max(2048)
        .optional(),
      search: z.string().max(200).optional(),
      cursor: z.string().max(500).optional(),
    }),
  ]),
  /** What would be added: the full command, the values it takes. Nothing is written. */
  'install:prepare': z.tuple([z.object({ source: installSourceSchema, name: z.string().min(1).max(200).optional() })]),
  /** Adds it with the person's values (secret ones to secret storage). A stdio entry then waits for consent. */
  'install:apply': z.tuple([
    z.object({
      source: installSourceSchema,
      name: z.string().min(1).max(200).optional(),
      values: z.record(z.string().max(200), z.string().max(64 * 1024)).default({}),
    }),
  ]),
  /** Removes a server's entry and, for a bundle, its files and the secrets it stored. */
  'install:uninstall': z.tuple([z.string().min(1).max(200)]),
  /** The `switchboard://install` link the OS handed the app and nobody showed yet (taken: asked once). */
  'install:pending': z.tuple([]),
} as const;
