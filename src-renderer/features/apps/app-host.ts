import type {
  McpUiDisplayMode,
  McpUiHostContext,
  McpUiResourcePermissions,
  McpUiStyleVariableKey,
  McpUiStyles,
} from '@modelcontextprotocol/ext-apps/app-bridge';
import type { CallToolResult, ReadResourceResult } from '@modelcontextprotocol/client';
import type { AppPermissionName } from '../../../src-shared/contract/apps';
import type { ReadResourceView, ResourceContents } from '../../../src-shared/contract/resources';
import type { ToolResult } from '../../../src-shared/contract/tools';

/*
 * What the renderer tells an MCP App about its host (spec 2026-01-26, `ui/initialize` hostContext and
 * `host-context-changed`) and how it judges what the app asks for (links, sizes, messages). Pure: AppView feeds it
 * what it reads from the page.
 */

export const availableDisplayModes: McpUiDisplayMode[] = ['inline', 'fullscreen', 'pip'];

/** The inline frame's height stays within these, whatever the app asks (`size-changed`). */
export const inlineHeight = { min: 48, max: 720, initial: 160 } as const;
/** The picture-in-picture frame: a corner of the window, never larger than this. */
export const pipSize = { width: 360, height: 280 } as const;

/**
 * The spec's style variables, each from one of the page's own (global.css). Values keep `light-dark()`: the app sets
 * its `color-scheme` from `theme`, so they resolve as the host's do.
 */
export const styleVariableSources: Partial<Record<McpUiStyleVariableKey, string>> = {
  '--color-background-primary': '--panel',
  '--color-background-secondary': '--panel-2',
  '--color-background-tertiary': '--bg',
  '--color-background-info': '--accent-soft',
  '--color-background-danger': '--err-soft',
  '--color-background-success': '--ok-soft',
  '--color-background-warning': '--warn-soft',
  '--color-text-primary': '--text',
  '--color-text-secondary': '--muted',
  '--color-text-tertiary': '--idle',
  '--color-text-info': '--accent',
  '--color-text-danger': '--err',
  '--color-text-success': '--ok',
  '--color-text-warning': '--warn',
  '--color-border-primary': '--border',
  '--color-border-secondary': '--border-strong',
  '--color-ring-primary': '--accent',
  '--font-sans': '--sans',
  '--font-mono': '--mono',
  '--border-radius-md': '--radius',
  '--shadow-sm': '--shadow',
};

/** The style variables the page defines (`read`: a custom property's value on the page's root, '' when unset). */
export function hostStyleVariables(read: (name: string) => string): McpUiStyles {
  const variables: Partial<Record<McpUiStyleVariableKey, string>> = {};
  for (const [key, source] of Object.entries(styleVariableSources) as [McpUiStyleVariableKey, string][]) {
    const value = read(source).trim();
    if (value !== '') variables[key] = value;
  }
  // The spec lets a host provide any subset of the variables; the type lists every key.
  return variables as McpUiStyles;
}

export interface HostContextInput {
  theme: 'light' | 'dark';
  /** The UI's language (`en` / `zh-CN`): the app's locale. */
  locale: string;
  timeZone: string;
  /** Electron: `desktop`; the headless host's page in a browser: `web`. */
  platform: 'desktop' | 'web';
  displayMode: McpUiDisplayMode;
  /** The space the frame has: its width, and the height it may grow to in this mode. */
  container: { width: number; maxHeight: number };
  variables: McpUiStyles;
  fonts?: string;
  touch?: boolean;
}

export function buildHostContext(input: HostContextInput): McpUiHostContext {
  return {
    theme: input.theme,
    styles: { variables: input.variables, ...(input.fonts !== undefined ? { css: { fonts: input.fonts } } : {}) },
    displayMode: input.displayMode,
    availableDisplayModes: [...availableDisplayModes],
    containerDimensions: { width: Math.round(input.container.width), maxHeight: Math.round(input.container.maxHeight) },
    locale: input.locale,
    timeZone: input.timeZone,
    platform: input.platform,
    userAgent: 'Switchboard',
    deviceCapabilities: { touch: input.touch ?? false, hover: true },
  };
}

/** Only the fields of `next` that differ from `previous` (what `host-context-changed` carries), or undefined. */
export function hostContextChanges(previous: McpUiHostContext, next: McpUiHostContext): McpUiHostContext | undefined {
  const changed: McpUiHostContext = {};
  let differs = false;
  for (const [key, value] of Object.entries(next)) {
    if (JSON.stringify(previous[key]) !== JSON.stringify(value)) {
      changed[key] = value;
      differs = true;
    }
  }
  return differs ? changed : undefined;
}

/** The inline frame's height for the height an app reports (a number it sends; anything else keeps `current`). */
export function boundedHeight(asked: unknown, current: number): number {
  if (typeof asked !== 'number' || !Number.isFinite(asked)) return current;
  return Math.min(inlineHeight.max, Math.max(inlineHeight.min, Math.ceil(asked)));
}

export type LinkCheck = { ok: true; url: string; host: string; https: boolean } | { ok: false; reason: 'invalid' | 'scheme' };

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Whether an app may ask to open `url` (elicitation's rules): https anywhere, http only on this machine (loopback);
 * no other scheme (javascript:, data:, file:, …), and no user name or password in it (a host could hide behind one).
 */
export function checkAppLink(url: unknown): LinkCheck {
  if (typeof url !== 'string' || url.length > 8192) return { ok: false, reason: 'invalid' };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, reason: 'invalid' };
  }
  if (parsed.username !== '' || parsed.password !== '') return { ok: false, reason: 'invalid' };
  if (parsed.protocol === 'https:') return { ok: true, url: parsed.href, host: parsed.host, https: true };
  if (parsed.protocol === 'http:' && loopbackHosts.has(parsed.hostname)) return { ok: true, url: parsed.href, host: parsed.host, https: false };
  return { ok: false, reason: 'scheme' };
}

interface ContentLike {
  [key: string]: unknown;
  type: string;
  text?: unknown;
  uri?: unknown;
  name?: unknown;
  resource?: unknown;
}

/** The text of content blocks an app sends (`ui/message`, `ui/update-model-context`); other blocks named. */
export function contentText(content: readonly ContentLike[] | undefined, structured?: unknown): string {
  const parts = (content ?? []).map((block) => {
    if (block.type === 'text' && typeof block.text === 'string') return block.text;
    if (block.type === 'resource_link' && typeof block.uri === 'string') return `[${typeof block.name === 'string' ? block.name : 'link'}: ${block.uri}]`;
    if (block.type === 'resource' && typeof block.resource === 'object' && block.resource !== null) {
      const r = block.resource as { uri?: unknown; text?: unknown };
      if (typeof r.text === 'string') return r.text;
      if (typeof r.uri === 'string') return `[${r.uri}]`;
    }
    return `[${block.type}]`;
  });
  if (structured !== undefined) parts.push(JSON.stringify(structured));
  return parts.join('\n\n').trim();
}

/** The most text one app message or model context may carry into the conversation. */
export const maxAppText = 64 * 1024;

const permissionKeys: Record<AppPermissionName, keyof McpUiResourcePermissions> = {
  camera: 'camera',
  microphone: 'microphone',
  geolocation: 'geolocation',
  clipboardWrite: 'clipboardWrite',
};

/** The granted permissions in the spec's shape (for `buildAllowAttribute` and sandbox-resource-ready). */
export function permissionsObject(granted: readonly AppPermissionName[]): McpUiResourcePermissions {
  const out: McpUiResourcePermissions = {};
  for (const name of granted) out[permissionKeys[name]] = {};
  return out;
}

/** What the app asked for and the person has not (yet) allowed. */
export function permissionsMissing(asked: readonly AppPermissionName[], granted: readonly AppPermissionName[]): AppPermissionName[] {
  return asked.filter((p) => !granted.includes(p));
}

/**
 * The inner frame's sandbox: scripts and forms only. No `allow-same-origin` (the app gets an opaque origin, so it
 * cannot read the proxy's storage or reach its parent), no popups, no top navigation, no downloads: those go through
 * the host's consent (`ui/open-link`, `ui/download-file`).
 */
export const innerSandbox = 'allow-scripts allow-forms';
/**
 * The outer frame (the sandbox proxy on its own origin): it keeps that origin (`allow-same-origin`, so the renderer can
 * tell its messages by origin) and runs its relay script; `allow-forms` passes on to the inner frame.
 */
/** Reasons the host gives (`data.reason`) when an app's frame is gone: its requests can never succeed again. */
const frameGoneReasons = new Set(['closed', 'server-stopped', 'too-many-frames', 'app-flood', 'host-stopped', 'unknown-frame']);

/** True when a refused app request says its frame is closed on the host (so the view should close too). */
export function frameGone(data: Record<string, unknown> | undefined): boolean {
  return typeof data?.reason === 'string' && frameGoneReasons.has(data.reason);
}

export const outerSandbox = 'allow-scripts allow-same-origin allow-forms';

type SdkContent = CallToolResult['content'][number];
type SdkResourceContents = ReadResourceResult['contents'][number];

function resourceContents(r: ResourceContents): SdkResourceContents {
  const mime = r.mimeType !== undefined ? { mimeType: r.mimeType } : {};
  return r.blob !== undefined ? { uri: r.uri, blob: r.blob, ...mime } : { uri: r.uri, text: r.text ?? '', ...mime };
}

/** A result as the host reports it, in the MCP shape the app expects (`tool-result`, its own `tools/call`). */
export function toCallToolResult(result: ToolResult): CallToolResult {
  const content = result.content.map((block): SdkContent => {
    switch (block.type) {
      case 'resource':
        return { type: 'resource', resource: resourceContents(block.resource) };
      case 'resource_link':
        return {
          type: 'resource_link',
          uri: block.uri,
          name: block.name,
          ...(block.description !== undefined ? { description: block.description } : {}),
          ...(block.mimeType !== undefined ? { mimeType: block.mimeType } : {}),
        };
      default:
        return block;
    }
  });
  return {
    content,
    ...(result.structuredContent !== undefined ? { structuredContent: result.structuredContent } : {}),
    ...(result.isError === true ? { isError: true } : {}),
    ...(result._meta !== undefined ? { _meta: result._meta } : {}),
  };
}

export function toReadResourceResult(view: ReadResourceView): ReadResourceResult {
  return { contents: view.contents.map(resourceContents) };
}
