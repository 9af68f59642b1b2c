import { z } from 'zod';
import { logLevels } from '../contract/logging';

/** Argument tuples of the server log channels (see ../contract/logging.ts). */

const serverName = z.string().min(1).max(200);
export const logLevelSchema = z.enum(logLevels);
/** A page of a server's entries (logs, trace) after the last one the caller has. */
export const seqPageSchema = z.object({
  server: serverName,
  /** Entries with `seq` greater than this. */
  after: z.number().int().min(0).optional(),
  limit: z.number().int().min(1).max(100_000).optional(),
});

export const loggingChannels = {
  'logs:list': z.tuple([seqPageSchema]),
  'logs:set-level': z.tuple([z.object({ server: serverName, level: logLevelSchema })]),
  'logs:stderr': z.tuple([seqPageSchema]),
} as const;
