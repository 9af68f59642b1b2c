import { z } from 'zod';

/** Argument tuples of the secrets channels (see ../contract/secrets.ts); values go in, only names come out. */

export const secretsChannels = {
  'secrets:list': z.tuple([]),
  'secrets:set': z.tuple([z.string().min(1).max(128), z.string().max(64 * 1024)]),
  'secrets:delete': z.tuple([z.string().min(1)]),
} as const;
