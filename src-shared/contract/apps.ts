import type { ReadResourceView } from './resources';
import type { ToolResult } from './tools';

/** MCP Apps (`io.modelcontextprotocol/ui`): the UI resources servers' tools point at, as the UI and the CLI see them. Zod-free. */

/** Who may call a tool (`_meta.ui.visibility`; both when the tool says nothing). */
export type AppVisibility = 'model' | 'app';

/** `_meta.ui.csp` of a UI resource: the origins its frame may reach, per CSP directive. */
export interface AppCsp {
  connectDomains?: string[];
  resourceDomains?: string[];
  frameDomains?: string[];
  baseUriDomains?: string[];
  /** WebAssembly may be compiled (`'wasm-unsafe-eval'` in `script-src` only; JavaScript eval stays off). */
  wasmUnsafeEval?: boolean;
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

/** A browser feature an app may ask for (`_meta.ui.permissions`), by its key there. */
export type AppPermissionName = 'camera' | 'microphone' | 'geolocation' | 'clipboardWrite';

/**
 * `apps:open`: one app frame the renderer is about to show, registered with the host under `frameId` (every request
 * the app makes names it; the host knows its server and tool from it, never from the app).
 */
export interface AppFrame {
  frameId: string;
  server: string;
  tool: string;
  /** The tool's title, else its name: the frame's accessible name. */
  title: string;
  resourceUri: string;
  html: string;
  digest: string;
  /**
   * The sandbox proxy page to load in the outer frame: on an origin of its own (headless: a second loopback port with a
   * token of its own; Electron: its own scheme), served with the Content-Security-Policy built from `csp`.
   */
  sandboxUrl: string;
  /** The origin `sandboxUrl` is on: the only origin whose messages the renderer accepts for this frame. */
  sandboxOrigin: string;
  /** The CSP the sandbox applies (declared domains, or the restrictive default). */
  csp: AppCsp;
  /** Asked for by the resource. */
  permissionsAsked: AppPermissionName[];
  /** Of those, what the person agreed to for this server (only these reach the frame's `allow`). */
  permissionsGranted: AppPermissionName[];
  prefersBorder?: boolean;
}

/** Where an app's request came from: its frame (the host looks up server and tool). */
export interface AppFrameRef {
  frameId: string;
}

/** One content block of a sampling answer (text, or the model's tool call when the app offered tools). */
export interface AppSampleBlock {
  type: string;
  [key: string]: unknown;
}

/** `apps:sample`: what `sampling/createMessage` answers (the MCP `CreateMessageResult`), to hand back to the app. */
export interface AppSampleResult {
  role: 'assistant';
  model: string;
  stopReason?: string;
  content: AppSampleBlock | AppSampleBlock[];
}

export interface AppsResults {
  /** Every tool with a UI of one ready server (or of all ready servers). */
  'apps:list': UiAppInfo[];
  /** The HTML of a tool's UI, as validated and pinned (refused while the tool needs review or the resource is invalid). */
  'apps:read': UiAppResource;
  /** Registers a frame for a tool's app and returns what to load in it (refused as `apps:read` refuses). */
  'apps:open': AppFrame;
  /** The app's `tools/call`: only tools of its own server whose visibility includes `app`; audited as source `mcp-app`. */
  'apps:call-tool': ToolResult;
  /** The app's `resources/read`: its own server's resources only. */
  'apps:read-resource': ReadResourceView;
  /** The app's `notifications/message` (`ui/log`): into its server's Logs. */
  'apps:log': void;
  /** Records the person's answer to an app's permissions (per server, remembered). */
  'apps:grant': AppPermissionName[];
  /** The frame is gone (card removed, conversation closed): the host forgets it. */
  'apps:close': boolean;
  /**
   * The app's `sampling/createMessage`: run under its server's sampling policy (`never` declines, `ask` asks the
   * person, `perMinute` counts it with the server's own), audited as source `mcp-app`.
   */
  'apps:sample': AppSampleResult;
}

export const appsChannelNames = {
  'apps:list': true,
  'apps:read': true,
  'apps:open': true,
  'apps:call-tool': true,
  'apps:read-resource': true,
  'apps:log': true,
  'apps:grant': true,
  'apps:close': true,
  'apps:sample': true,
} as const satisfies Record<keyof AppsResults, true>;

/** Why the host closed a frame on its own (never sent for the renderer's own `apps:close`). */
export type AppFrameClosedReason = 'server-stopped' | 'too-many-frames' | 'app-flood' | 'host-stopped';

/** `apps:closed`: the host closed a frame itself; the renderer removes it and says why. */
export interface AppClosedEvent {
  frameId: string;
  server: string;
  tool: string;
  reason: AppFrameClosedReason;
  /** The reason in English, for logs and hosts without the catalogue (the UI words it from `reason`). */
  message: string;
}

export interface AppsEvents {
  'apps:closed': AppClosedEvent;
}

export const appsEventNames = { 'apps:closed': true } as const satisfies Record<keyof AppsEvents, true>;
