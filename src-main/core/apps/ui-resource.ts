import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { AppCsp, AppPermissions, ToolApp } from '../../../src-shared/host-api';
import { messageOf } from '../errors';

/*
 * Reading and checking a tool's UI resource (MCP Apps): `resources/read` of its `ui://` URI must answer one content
 * item for that URI with mime `text/html;profile=mcp-app` and the HTML as `text` (or base64 `blob`), at most
 * `maxAppHtmlBytes`. The item's `_meta.ui` declares its CSP origins, permissions, border
 * preference and domain. The HTML's SHA-256 is pinned with the tool's definition (trust/pins.ts).
 */

export const appMimeType = 'text/html;profile=mcp-app';
/** Larger HTML is refused: an app is a page, not a download, and the whole of it crosses IPC and is hashed. */
export const maxAppHtmlBytes = 2 * 1024 * 1024;

/** A read, checked UI resource: its summary (for the tool) and, when valid, its HTML. */
export interface LoadedApp {
  app: ToolApp;
  html?: string;
}

const domains = z.array(z.string().max(2048)).max(256).optional();
const cspSchema = z.object({
  connectDomains: domains,
  resourceDomains: domains,
  frameDomains: domains,
  baseUriDomains: domains,
  wasmUnsafeEval: z.boolean().optional(),
});
const permissionSchema = z.object({}).optional();
const permissionsSchema = z.object({ camera: permissionSchema, microphone: permissionSchema, geolocation: permissionSchema, clipboardWrite: permissionSchema });
const uiMetaSchema = z.object({
  csp: cspSchema.optional(),
  permissions: permissionsSchema.optional(),
  prefersBorder: z.boolean().optional(),
  domain: z.string().max(2048).optional(),
});

const contentSchema = z.object({
  uri: z.string(),
  mimeType: z.string().optional(),
  text: z.string().optional(),
  blob: z.string().optional(),
  _meta: z.record(z.string(), z.unknown()).optional(),
});

type UiMeta = z.infer<typeof uiMetaSchema>;

export const digestOf = (html: string): string => `sha256:${createHash('sha256').update(html, 'utf8').digest('hex')}`;

function invalid(resourceUri: string, problem: string): LoadedApp {
  return { app: { resourceUri, status: 'invalid', problem } };
}

/** Only the keys declared (zod leaves absent optionals undefined; the contract wants them left out). */
function cspOf(csp: UiMeta['csp']): AppCsp | undefined {
  if (!csp) return undefined;
  const out: AppCsp = {};
  for (const key of ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const) if (csp[key] !== undefined) out[key] = [...csp[key]];
  if (csp.wasmUnsafeEval !== undefined) out.wasmUnsafeEval = csp.wasmUnsafeEval;
  return out;
}

function permissionsOf(permissions: UiMeta['permissions']): AppPermissions | undefined {
  if (!permissions) return undefined;
  const out: AppPermissions = {};
  for (const key of ['camera', 'microphone', 'geolocation', 'clipboardWrite'] as const) if (permissions[key] !== undefined) out[key] = {};
  return out;
}

/** Checks a `resources/read` result for `resourceUri`; `where` names the tool for the messages (`server/tool`). */
export function checkAppResource(resourceUri: string, read: unknown, where: string): LoadedApp {
  if (!resourceUri.startsWith('ui://'))
    return invalid(
      resourceUri,
      `${where} names "${resourceUri}" as its UI, but an MCP App's resource URI must start with ui://. Ask the server's author to fix the tool's _meta.ui.resourceUri.`,
    );
  const contents = (read as { contents?: unknown } | undefined)?.contents;
  const items = Array.isArray(contents) ? contents : [];
  const raw = items.find((item) => (item as { uri?: unknown } | null)?.uri === resourceUri) ?? items[0];
  const parsed = contentSchema.safeParse(raw);
  if (!parsed.success)
    return invalid(resourceUri, `${where}: reading ${resourceUri} gave no content item. The server must answer resources/read of it with its HTML.`);
  const item = parsed.data;
  const mime = item.mimeType?.replace(/\s+/g, '').toLowerCase();
  if (mime !== appMimeType)
    return invalid(
      resourceUri,
      `${where}: ${resourceUri} has mime type "${item.mimeType ?? '(none)'}", but an MCP App must be "${appMimeType}". Ask the server's author to fix it (Switchboard does not render other types).`,
    );
  let html: string;
  if (item.text !== undefined) html = item.text;
  else if (item.blob !== undefined) html = Buffer.from(item.blob, 'base64').toString('utf8');
  else return invalid(resourceUri, `${where}: ${resourceUri} has neither text nor blob content: there is no HTML to show.`);
  const size = Buffer.byteLength(html, 'utf8');
  if (size === 0 || html.trim() === '') return invalid(resourceUri, `${where}: ${resourceUri} is empty: there is no HTML to show.`);
  if (size > maxAppHtmlBytes)
    return invalid(resourceUri, `${where}: ${resourceUri} is ${size} bytes of HTML, more than the ${maxAppHtmlBytes} Switchboard accepts for an app.`);
  const metaParsed = uiMetaSchema.safeParse((item._meta as { ui?: unknown } | undefined)?.ui ?? {});
  if (!metaParsed.success)
    return invalid(
      resourceUri,
      `${where}: ${resourceUri} declares a _meta.ui that is not valid (${metaParsed.error.issues[0]?.message ?? 'bad shape'} at ${metaParsed.error.issues[0]?.path.join('.') ?? ''}).`,
    );
  const meta = metaParsed.data;
  const csp = cspOf(meta.csp);
  const permissions = permissionsOf(meta.permissions);
  return {
    html,
    app: {
      resourceUri,
      status: 'ok',
      digest: digestOf(html),
      size,
      ...(csp ? { csp } : {}),
      ...(permissions ? { permissions } : {}),
      ...(meta.prefersBorder !== undefined ? { prefersBorder: meta.prefersBorder } : {}),
      ...(meta.domain !== undefined ? { domain: meta.domain } : {}),
    },
  };
}

/** Reads and checks `resourceUri`; a failed read is an `invalid` app saying why, never a throw. */
export async function loadAppResource(read: (uri: string) => Promise<unknown>, resourceUri: string, where: string): Promise<LoadedApp> {
  if (!resourceUri.startsWith('ui://')) return checkAppResource(resourceUri, undefined, where);
  try {
    return checkAppResource(resourceUri, await read(resourceUri), where);
  } catch (error) {
    return invalid(resourceUri, `${where}: reading ${resourceUri} failed: ${messageOf(error)}. The server must offer it through resources/read.`);
  }
}
