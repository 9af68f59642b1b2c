/** MCP Apps (`io.modelcontextprotocol/ui`): the UI resources servers' tools point at, as the UI and the CLI see them. Zod-free. */

/** Who may call a tool (`_meta.ui.visibility`; both when the tool says nothing). */
export type AppVisibility = 'model' | 'app';

/** `_meta.ui.csp` of a UI resource: the origins its frame may reach, per CSP directive. */
export interface AppCsp {
  connectDomains?: string[];
  resourceDomains?: string[];
  frameDomains?: string[];
  baseUriDomains?: string[];
}

/** `_meta.ui.permissions` of a UI resource: the browser features it asks for (each present key is a request). */
export interface AppPermissions {
  camera?: Record<string, never>;
  microphone?: Record<string, never>;
  geolocation?: Record<string, never>;
  clipboardWrite?: Record<string, never>;
}

/**
 * A tool's UI as the host read it when the tool was listed: `ok` with the HTML's digest (pinned with the tool's
 * definition), or `invalid` with what is wrong (a person can act on it: the server's author or its version).
 */
export interface ToolApp {
  resourceUri: string;
  status: 'ok' | 'invalid';
  /** `sha256:<hex>` of the HTML (UTF-8), when it could be read and validated. */
  digest?: string;
  /** `invalid`: what is wrong with the resource. */
  problem?: string;
  csp?: AppCsp;
  permissions?: AppPermissions;
  prefersBorder?: boolean;
  domain?: string;
  /** Bytes of HTML (UTF-8). */
  size?: number;
}

/** One tool with a UI, for `apps:list`. */
export interface UiAppInfo {
  server: string;
  tool: string;
  /** The tool's title, else its name (an accessible name for its frame). */
  title: string;
  resourceUri: string;
  visibility: AppVisibility[];
  status: ToolApp['status'];
  problem?: string;
  digest?: string;
  csp?: AppCsp;
  permissions?: AppPermissions;
  prefersBorder?: boolean;
  domain?: string;
  /** The tool's pinned-definition review state (a changed HTML makes it `changed`). */
  review: 'trusted' | 'changed' | 'new' | 'flagged';
}

/** `apps:read`: a validated UI resource, its HTML and what its `_meta.ui` declares. */
export interface UiAppResource {
  server: string;
  tool: string;
  resourceUri: string;
  html: string;
  digest: string;
  csp?: AppCsp;
  permissions?: AppPermissions;
  prefersBorder?: boolean;
  domain?: string;
}

export interface AppsResults {
  /** Every tool with a UI of one ready server (or of all ready servers). */
  'apps:list': UiAppInfo[];
  /** The HTML of a tool's UI, as validated and pinned (refused while the tool needs review or the resource is invalid). */
  'apps:read': UiAppResource;
}

export const appsChannelNames = { 'apps:list': true, 'apps:read': true } as const satisfies Record<keyof AppsResults, true>;
