import { z } from 'zod';

/** Argument tuples of the prompts and completion channels (see ../contract/prompts.ts for the results). */

const serverName = z.string().min(1).max(200);
const shortText = z.string().max(64 * 1024);
const stringRecord = z.record(z.string().max(1000), shortText);

export const completionRefSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('prompt'), name: z.string().min(1).max(1000) }),
  z.object({
    type: z.literal('resource'),
    uri: z
      .string()
      .min(1)
      .max(16 * 1024),
  }),
]);

export const promptsChannels = {
  'prompts:list': z.tuple([serverName]),
  'prompts:get': z.tuple([z.object({ server: serverName, name: z.string().min(1).max(1000), args: stringRecord.default({}) })]),
  'completion:complete': z.tuple([
    z.object({
      server: serverName,
      ref: completionRefSchema,
      argument: z.object({ name: z.string().min(1).max(1000), value: shortText }),
      context: stringRecord.optional(),
    }),
  ]),
} as const;
