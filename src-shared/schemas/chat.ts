import { z } from 'zod';
import { maxAppContextBytes, maxAppContexts, maxChatAttachments } from '../contract/chat';
import { resourceRefSchema } from './resources';

/** Argument tuples of the chat's channels: turns, conversations, providers, direct calls (see ../contract/chat.ts). */

const conversationIdSchema = z.string().min(1).max(100);
const modelSpecSchema = z
  .string()
  .regex(/^[a-z][a-z0-9-]*:\S+$/, 'a model is written provider:model, e.g. anthropic:claude-sonnet-4-5')
  .max(300);
const toolKeySchema = z.string().min(3).max(600);

const appMessageSourceSchema = z.object({
  server: z.string().min(1).max(200),
  tool: z.string().min(1).max(500),
  title: z.string().min(1).max(500),
});
const appContextItemSchema = appMessageSourceSchema.extend({
  text: z
    .string()
    .min(1)
    // Characters first (never more than its bytes), so a huge string is refused before it is encoded.
    .max(maxAppContextBytes)
    .refine((text) => new TextEncoder().encode(text).length <= maxAppContextBytes, `an app's model context is at most ${maxAppContextBytes / 1024} KiB`),
});

export const chatSendSchema = z.object({
  conversationId: conversationIdSchema.optional(),
  text: z
    .string()
    .trim()
    .min(1)
    .max(1024 * 1024),
  model: modelSpecSchema.optional(),
  /** Resources read (resources:read) and sent with the message as context for the model. */
  attachments: z.array(resourceRefSchema).max(maxChatAttachments).optional(),
  /** Apps' `ui/update-model-context`, for this turn's model. */
  appContext: z.array(appContextItemSchema).max(maxAppContexts).optional(),
  /** The message is an app's `ui/message`. */
  fromApp: appMessageSourceSchema.optional(),
  toolset: z.string().min(1).max(100).nullable().optional(),
});
export const chatSettingsPatchSchema = z.object({
  model: modelSpecSchema.optional(),
  approval: z.enum(['ask', 'readonly', 'all', 'none']).optional(),
  maxSteps: z.number().int().min(1).max(100).optional(),
  disabledTools: z.array(toolKeySchema).max(10_000).optional(),
  alwaysAllow: z.array(toolKeySchema).max(10_000).optional(),
  toolLoading: z.enum(['auto', 'all', 'search']).optional(),
  /** Checked by the settings store, which names the set and field that is wrong. */
  toolsets: z.array(z.unknown()).max(200).optional(),
  defaultToolset: z.string().max(100).nullable().optional(),
});
export const providerIdSchema = z.enum(['anthropic', 'openai', 'ollama', 'compatible']);
export const providerConfigureSchema = z.object({
  id: providerIdSchema,
  apiKey: z.string().trim().min(1).max(4096).nullable().optional(),
  baseURL: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .nullable()
    .optional(),
});

/** A tool the person calls directly (`/tool {…}` or the form): recorded in the conversation and the audit log. */
export const directCallSchema = z.object({
  /** The conversation to record it in; omitted: a new one is started. */
  conversationId: conversationIdSchema.optional(),
  server: z.string().min(1),
  tool: z.string().min(1),
  args: z.record(z.string(), z.unknown()).default({}),
  /** Keys `calls:progress` and `tools:cancel`. */
  callId: z.string().min(1).max(200),
  /** What was typed (`/add {"a":2}`); omitted for the form. */
  command: z
    .string()
    .max(1024 * 1024)
    .optional(),
  task: z.boolean().optional(),
});

export const chatChannels = {
  'chat:send': z.tuple([chatSendSchema]),
  /** A run id or a conversation id. */
  'chat:stop': z.tuple([z.string().min(1).max(100)]),
  'chat:approve': z.tuple([z.string().min(1).max(300), z.enum(['once', 'always', 'deny'])]),
  'chat:list': z.tuple([z.object({ query: z.string().max(500).optional() })]),
  'chat:get': z.tuple([conversationIdSchema]),
  'chat:rename': z.tuple([conversationIdSchema, z.string().trim().min(1).max(200)]),
  'chat:delete': z.tuple([conversationIdSchema]),
  'chat:settings': z.tuple([]),
  'chat:update-settings': z.tuple([chatSettingsPatchSchema]),
  'chat:fetch-image': z.tuple([z.url({ protocol: /^https?$/ }).max(4096)]),
  'chat:call': z.tuple([directCallSchema]),
  'chat:pin-tool': z.tuple([conversationIdSchema, toolKeySchema, z.boolean()]),
  'chat:remove-tools': z.tuple([conversationIdSchema, z.array(toolKeySchema).min(1).max(10_000)]),
  'chat:set-toolset': z.tuple([conversationIdSchema, z.string().min(1).max(100).nullable()]),
  'providers:list': z.tuple([]),
  'providers:configure': z.tuple([providerConfigureSchema]),
  'providers:models': z.tuple([providerIdSchema]),
  /** The working folder's `.env` choices the person saw and confirms (name → value); only exact matches count. */
  'providers:confirm-dotenv': z.tuple([z.object({ values: z.record(z.string().min(1).max(100), z.string().max(4096)) })]),
  'audit:list': z.tuple([z.object({ limit: z.number().int().min(1).max(10_000).optional() })]),
} as const;
