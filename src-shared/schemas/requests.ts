import { z } from 'zod';

/** Argument tuples of the requests channels (see ../contract/requests.ts). Per-kind accept content is checked by the kind's handler. */

const requestId = z.string().min(1).max(200);
export const requestAnswerSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('accept'), content: z.record(z.string(), z.unknown()).optional() }),
  z.object({ action: z.literal('decline'), reason: z.string().max(2000).optional() }),
  z.object({ action: z.literal('cancel'), reason: z.string().max(2000).optional() }),
]);

export const requestsChannels = {
  'requests:list': z.tuple([]),
  'requests:answer': z.tuple([requestId, requestAnswerSchema]),
} as const;
