import { z } from 'zod';
import { serverEntrySchema } from './schemas/config';
import { loggingChannels } from './schemas/logging';
import { promptsChannels } from './schemas/prompts';
import { resourceRefSchema, resourcesChannels } from './schemas/resources';
import { requestsChannels } from './schemas/requests';
import { trustChannels } from './schemas/trust';
import { authChannels } from './schemas/auth';
import { shellChannels } from './schemas/shell';
import { consentChannels } from './schemas/consent';
import { installChannels } from './schemas/install';
import { everydayChannels } from './schemas/settings';
import { maxChatAttachments } from './chat-types';

/** The argument schemas main (IPC gateway, headless bridge) parses untrusted calls with: one zod tuple per channel. */

export const callToolRequestSchema = z.object({
  server: z.string().min(1),
  tool: z.string().min(1),
  args: z.record(z.string(), z.unknown()).default({}),
  /** A caller-chosen id; `tools:cancel` with it aborts the call (sends notifications/cancelled). */
  callId: z.string().min(1).max(200).optional(),
  /** Run as a task (`io.modelcontextprotocol/tasks`) where the tool allows it; tools that require it always are. */
  task: z.boolean().optional(),
});
export const importSourceSchema = z.string().min(1).max(4096);

const conversationIdSchema = z.string().min(1).max(100);
const modelSpecSchema = z.string().regex(/^[a-z][a-z0-9-]*:\S+$/, 'a model is written provider:model, e.g. anthropic:claude-sonnet-4-5').max(300);
const toolKeySchema = z.string().min(3).max(600);
export const chatSendSchema = z.object({
  conversationId: conversationIdSchema.optional(),
  text: z.string().trim().min(1).max(1024 * 1024),
  model: modelSpecSchema.optional(),
  /** Resources read (resources:read) and sent with the message as context for the model. */
  attachments: z.array(resourceRefSchema).max(maxChatAttachments).optional(),
});
export const chatSettingsPatchSchema = z.object({
  model: modelSpecSchema.optional(),
  approval: z.enum(['ask', 'readonly', 'all', 'none']).optional(),
  maxSteps: z.number().int().min(1).max(100).optional(),
  disabledTools: z.array(toolKeySchema).max(10_000).optional(),
  alwaysAllow: z.array(toolKeySchema).max(10_000).optional(),
});
export const providerIdSchema = z.enum(['anthropic', 'openai', 'ollama', 'compatible']);
export const providerConfigureSchema = z.object({
  id: providerIdSchema,
  apiKey: z.string().trim().min(1).max(4096).nullable().optional(),
  baseURL: z.url({ protocol: /^https?$/ }).max(2048).nullable().optional(),
});

/**
 * The contract: one entry per channel, `noun:verb`. `args` is a zod tuple that main (and the headless bridge)
 * parse before doing work, since the renderer is untrusted. Adding an entry is a compile error in every
 * implementation until it is handled.
 */
export const hostChannels = {
  'app:info': z.tuple([]),
  'servers:list': z.tuple([]),
  'servers:restart': z.tuple([z.string().min(1)]),
  'tools:call': z.tuple([callToolRequestSchema]),
  'tools:cancel': z.tuple([z.string().min(1)]),
  'config:read': z.tuple([]),
  'config:save': z.tuple([z.object({ text: z.string().max(8 * 1024 * 1024), baseHash: z.string().min(1) })]),
  'servers:upsert': z.tuple([z.object({ name: z.string().min(1).max(200), entry: serverEntrySchema, previousName: z.string().min(1).optional() })]),
  'servers:remove': z.tuple([z.string().min(1)]),
  'servers:set-enabled': z.tuple([z.string().min(1), z.boolean()]),
  'config:export': z.tuple([z.object({ names: z.array(z.string().min(1)).optional() })]),
  'config:import-preview': z.tuple([z.object({ source: importSourceSchema })]),
  'config:import-apply': z.tuple([
    z.object({
      source: importSourceSchema,
      /** The servers to take; conflicting ones only when also in `overwrite`. */
      names: z.array(z.string().min(1)),
      overwrite: z.array(z.string().min(1)).default([]),
      moveSecrets: z.boolean().default(false),
    }),
  ]),
  'secrets:list': z.tuple([]),
  'secrets:set': z.tuple([z.string().min(1).max(128), z.string().max(64 * 1024)]),
  'secrets:delete': z.tuple([z.string().min(1)]),
  'shell:open': z.tuple([z.enum(['config', 'logs'])]),
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
  'providers:list': z.tuple([]),
  'providers:configure': z.tuple([providerConfigureSchema]),
  'providers:models': z.tuple([providerIdSchema]),
  /** The working folder's `.env` choices the person saw and confirms (name → value); only exact matches count. */
  'providers:confirm-dotenv': z.tuple([z.object({ values: z.record(z.string().min(1).max(100), z.string().max(4096)) })]),
  'audit:list': z.tuple([z.object({ limit: z.number().int().min(1).max(10_000).optional() })]),
  // The domains that have a file of their own under ./schemas/ (new domains go there).
  ...resourcesChannels,
  ...promptsChannels,
  ...loggingChannels,
  ...requestsChannels,
  ...trustChannels,
  ...authChannels,
  ...shellChannels,
  ...consentChannels,
  ...installChannels,
  ...everydayChannels,
} as const;

