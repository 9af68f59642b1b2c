import { z } from 'zod';

/** Argument tuples of the consent channel (see ../contract/consent.ts). */

export const consentChannels = {
  /** [server name, the ConsentView hash the person was shown]: approve that launch; the server then starts. */
  'servers:approve': z.tuple([z.string().min(1).max(200), z.string().regex(/^[0-9a-f]{64}$/, "the hash from the server's consent view")]),
} as const;
