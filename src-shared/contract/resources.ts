/** Resources a server offers (MCP `resources/*`), as the UI and the CLI see them. Zod-free. */

export interface ResourceInfo {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  annotations?: Record<string, unknown>;
}

export interface ResourceTemplateInfo {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: Record<string, unknown>;
}

/** One item of a `resources/read` result: text, or base64 `blob`. */
export interface ResourceContents {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
}

export interface ReadResourceView {
  contents: ResourceContents[];
}

/** A server's resource lists as last loaded (all pages), with the load's error if it failed. */
export interface ResourceListView {
  server: string;
  resources: ResourceInfo[];
  templates: ResourceTemplateInfo[];
  /** URIs this host is subscribed to (live updates). */
  subscribed: string[];
  /** Whether the server can be subscribed to (`resources.subscribe`, or 2026-07-28 `subscriptions/listen`). */
  canSubscribe: boolean;
  error?: string;
}

/** A subscribed resource changed on the server (`notifications/resources/updated`). */
export interface ResourceUpdatedEvent {
  server: string;
  uri: string;
}

export interface ResourcesResults {
  /** Every page loaded; templates too; `error` when loading failed. */
  'resources:list': ResourceListView;
  'resources:read': ReadResourceView;
  'resources:subscribe': void;
  'resources:unsubscribe': void;
}

export interface ResourcesEvents {
  'resources:updated': ResourceUpdatedEvent;
}

/** Each resources channel and event once, at runtime (the preload and the IPC gateway register them by name). */
export const resourcesChannelNames = {
  'resources:list': true,
  'resources:read': true,
  'resources:subscribe': true,
  'resources:unsubscribe': true,
} as const satisfies Record<keyof ResourcesResults, true>;
export const resourcesEventNames = { 'resources:updated': true } as const satisfies Record<keyof ResourcesEvents, true>;
