/** Resources a server offers (MCP `resources/*`), as the UI and the CLI see them. Zod-free (see ../host-api.ts). */

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
