/** Prompts a server offers (MCP `prompts/*`) and argument completion (`completion/complete`). Zod-free. */
import type { ContentBlock } from './tools';

export interface PromptArgumentInfo {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
}

export interface PromptInfo {
  name: string;
  title?: string;
  description?: string;
  arguments: PromptArgumentInfo[];
}

export interface PromptListView {
  server: string;
  prompts: PromptInfo[];
  error?: string;
}

export interface PromptMessageView {
  role: 'user' | 'assistant';
  content: ContentBlock;
}

export interface GetPromptView {
  description?: string;
  messages: PromptMessageView[];
}

/** What `completion/complete` is asked about: a prompt's argument or a resource template's variable. */
export type CompletionRef = { type: 'prompt'; name: string } | { type: 'resource'; uri: string };

export interface CompletionView {
  values: string[];
  total?: number;
  hasMore?: boolean;
}

export interface PromptsResults {
  'prompts:list': PromptListView;
  'prompts:get': GetPromptView;
  'completion:complete': CompletionView;
}

/** Each prompts channel once, at runtime (the preload and the IPC gateway register them by name). */
export const promptsChannelNames = { 'prompts:list': true, 'prompts:get': true, 'completion:complete': true } as const satisfies Record<
  keyof PromptsResults,
  true
>;
