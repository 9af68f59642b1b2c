import { z } from 'zod';

/** Argument tuples of the tool-call channels (see ../contract/tools.ts). */

export const callToolRequestSchema = z.object({
  server: z.string().min(1),
  tool: z.string().min(1),
  args: z.record(z.string(), z.unknown()).default({}),
  /** A caller-chosen id; `tools:cancel` with it aborts the call (sends notifications/cancelled). */
  callId: z.string().min(1).max(200).optional(),
  /** Run as a task (`io.modelcontextprotocol/tasks`) where the tool allows it; tools that require it always are. */
  task: z.boolean().optional(),
});
export type CallToolRequest = z.input<typeof callToolRequestSchema>;

export const toolsChannels = {
  'tools:call': z.tuple([callToolRequestSchema]),
  'tools:cancel': z.tuple([z.string().min(1)]),
  'calls:list': z.tuple([]),
} as const;
