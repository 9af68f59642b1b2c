import { z } from 'zod';

/** Argument tuples of the trust channels (see ToolReview in ../contract/trust.ts). */

export const trustToolsRequestSchema = z.object({
  server: z.string().min(1).max(200),
  /** The tools whose current definitions to accept; every tool that needs review when omitted. */
  tools: z.array(z.string().min(1).max(500)).max(10_000).optional(),
});

export const trustChannels = {
  'tools:trust': z.tuple([trustToolsRequestSchema]),
} as const;
