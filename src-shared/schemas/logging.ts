import { z } from 'zod';
import { logLevels } from '../contract/logging';

/** Argument tuples of the logs, health, trace and debug-bundle channels (see ../contract/logging.ts). */

const serverName = z.string().min(1).max(200);
export const logLevelSchema = z.enum(logLevels);
const pageSchema = z.object({
  server: serverName,
  /** Entries with `seq` greater than this. */
  after: z.number().int().min(0).optional(),
  limit: z.number().int().min(1).max(100_000).optional(),
});

export const loggingChannels = {
  'logs:list': z.tuple([pageSchema]),
  'logs:set-level': z.tuple([z.object({ server: serverName, level: logLevelSchema })]),
  'servers:ping': z.tuple([serverName]),
  'trace:list': z.tuple([pageSchema]),
  'trace:clear': z.tuple([serverName]),
  'debug:bundle': z.tuple([z.object({ servers: z.array(serverName).max(1000).optional() })]),
} as const;
