import { z } from 'zod';

/** Argument tuples of the servers' status channels (see ../contract/servers.ts); editing entries is ./config.ts. */

const serverName = z.string().min(1).max(200);

export const serversChannels = {
  'servers:list': z.tuple([]),
  'servers:restart': z.tuple([z.string().min(1)]),
  'servers:ping': z.tuple([serverName]),
} as const;
