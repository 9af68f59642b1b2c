import { z } from 'zod';

/** Argument tuples of the resources channels (see ../contract/resources.ts for the results). */

const serverName = z.string().min(1).max(200);
export const resourceRefSchema = z.object({
  server: serverName,
  uri: z
    .string()
    .min(1)
    .max(16 * 1024),
});

export const resourcesChannels = {
  'resources:list': z.tuple([serverName]),
  'resources:read': z.tuple([resourceRefSchema]),
  'resources:subscribe': z.tuple([resourceRefSchema]),
  'resources:unsubscribe': z.tuple([resourceRefSchema]),
} as const;
