import { z } from 'zod';
import { seqPageSchema } from './logging';

/** Argument tuples of the protocol trace and debug-bundle channels (see ../contract/trace.ts). */

const serverName = z.string().min(1).max(200);

export const traceChannels = {
  'trace:list': z.tuple([seqPageSchema]),
  'trace:clear': z.tuple([serverName]),
  'debug:bundle': z.tuple([z.object({ servers: z.array(serverName).max(1000).optional() })]),
} as const;
