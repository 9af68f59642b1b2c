/**
 * The state shapes of a server's feature views (resources, prompts, logs, trace), shared by the store slices and
 * the components under features/. Zod-free, DOM-free.
 */
import type { ContentBlock } from '../../src-shared/host-api';
import type { GetPromptView, PromptListView } from '../../src-shared/contract/prompts';
import type { LogEntry, StderrLine } from '../../src-shared/contract/logging';
import type { PingView } from '../../src-shared/contract/servers';
import type { DebugBundleView, TraceEntry } from '../../src-shared/contract/trace';
import type { ReadResourceView, ResourceContents, ResourceListView } from '../../src-shared/contract/resources';

/** Something fetched on demand: not asked yet (undefined), in flight, there, or failed. */
export type Loadable<T> = { state: 'loading'; value?: T } | { state: 'ok'; value: T; at: number } | { state: 'error'; message: string; value?: T };

export type ServerTab = 'tools' | 'resources' | 'prompts' | 'apps' | 'skills' | 'logs' | 'trace';
export const serverTabs: readonly ServerTab[] = ['tools', 'resources', 'prompts', 'apps', 'skills', 'logs', 'trace'];

/** What the resources tab has open on the right. */
export type ResourceSelection = { kind: 'resource'; uri: string; embedded?: ResourceContents } | { kind: 'template'; uriTemplate: string; uri?: string };

/** The open server page (on the chat screen, in place of the conversation, which stays mounted). */
export interface ServerPageState {
  server: string;
  tab: ServerTab;
  tool?: string;
  resource?: ResourceSelection;
  prompt?: string;
  /** The skill (its SKILL.md URI) open in the Skills tab. */
  skill?: string;
}

export type ResourceListState = Loadable<ResourceListView>;
export type ReadState = Loadable<ReadResourceView>;
export type PromptListState = Loadable<PromptListView>;
export type PromptResultState = Loadable<GetPromptView> & { args?: Record<string, string> };

export interface LogsState {
  entries: LogEntry[];
  /** The server's stderr lines, shown among the log messages by time. */
  stderr: StderrLine[];
  loaded: boolean;
  loading: boolean;
  error?: string;
}

export interface TraceState {
  entries: TraceEntry[];
  loaded: boolean;
  loading: boolean;
  error?: string;
}

export type PingState = Loadable<PingView>;
export type BundleState = Loadable<DebugBundleView>;

/** Keys a (server, uri) pair. */
export const resourceKey = (server: string, uri: string): string => `${server}\u0000${uri}`;

/** A prompt's messages put into the chat log by "insert into conversation" (or `/prompt`). */
export interface PromptInsert {
  server: string;
  prompt: string;
  args: Record<string, string>;
  description?: string;
  messages: Array<{ role: 'user' | 'assistant'; content: ContentBlock }>;
}
