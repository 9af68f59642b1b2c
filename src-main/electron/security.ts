import { app, shell, type Session, type WebContents } from 'electron';
import type { AppPermissionName } from '../../src-shared/contract/apps';
import { appFrameIdOf, mayGrantAppPermission } from './app-permissions';
import { isAppSchemeUrl, mayNavigateSubframe } from './app-scheme';
import { contentSecurityPolicy } from './csp';

/** The frame ids of the MCP App `srcdoc` frames on a page (each under its `switchboard-app://<frameId>/` proxy page). */
function appFramesOf(contents: WebContents | null): string[] {
  if (!contents || contents.isDestroyed()) return [];
  return contents.mainFrame.framesInSubtree.flatMap((frame) => (frame.url === 'about:srcdoc' ? (appFrameIdOf(frame.parent?.url) ?? []) : []));
}

/**
 * CSP on every response, and no permission (camera, notifications, …) is granted, except to an MCP App's frame what
 * the person granted its server (`appGrants(frameId)`: the open frame's granted permissions; see app-permissions.ts).
 */
export function secureSession(
  session: Session,
  devServerUrl: string | undefined,
  appGrants?: (frameId: string) => readonly AppPermissionName[] | undefined,
): void {
  const csp = contentSecurityPolicy(devServerUrl);
  session.webRequest.onHeadersReceived((details, callback) => {
    // An app's proxy page keeps its own policy (the frame's CSP); the renderer's would break it.
    if (isAppSchemeUrl(details.url)) {
      callback({});
      return;
    }
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(details.responseHeaders ?? {})) {
      if (name.toLowerCase() !== 'content-security-policy') headers[name] = value;
    }
    headers['Content-Security-Policy'] = [csp];
    callback({ responseHeaders: headers });
  });
  session.setPermissionRequestHandler((contents, permission, callback, details) => {
    const mediaTypes = 'mediaTypes' in details ? details.mediaTypes : undefined;
    const ask = { permission, requestingUrl: details.requestingUrl, appFrames: appFramesOf(contents), ...(mediaTypes ? { mediaTypes } : {}) };
    callback(appGrants !== undefined && mayGrantAppPermission(ask, appGrants));
  });
  // Checks (as opposed to prompts): a plain-text clipboard write (for "copy result"), and an app's granted ones.
  session.setPermissionCheckHandler((contents, permission, _origin, details) => {
    if (permission === 'clipboard-sanitized-write') return true;
    if (appGrants === undefined) return false;
    const ask = {
      permission,
      requestingUrl: details.requestingUrl,
      appFrames: appFramesOf(contents),
      ...(details.mediaType !== undefined ? { mediaTypes: [details.mediaType] } : {}),
    };
    return mayGrantAppPermission(ask, appGrants);
  });
}

export function isExternalHttpUrl(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

function openExternally(url: string): void {
  if (!isExternalHttpUrl(url)) return;
  shell.openExternal(url).catch((error: unknown) => console.error(`[switchboard] openExternal failed: ${String(error)}`));
}

/**
 * Navigation is denied except to our own renderer (reloads, hash changes, the dev server); http(s) links open in
 * the user's browser; new windows and <webview> are never created.
 */
export function lockDownContents(contents: WebContents, isRendererUrl: (url: string) => boolean): void {
  const guard = (event: { preventDefault(): void }, url: string): void => {
    if (isRendererUrl(url)) return;
    event.preventDefault();
    openExternally(url);
  };
  contents.on('will-navigate', (event) => guard(event, event.url));
  contents.on('will-frame-navigate', (event) => {
    if (isRendererUrl(event.url)) return;
    // MCP Apps: the sandbox proxy page in its frame, the app in the proxy's srcdoc (see app-scheme.ts).
    if (!event.isMainFrame && mayNavigateSubframe(event.frame, event.url, isRendererUrl)) return;
    event.preventDefault();
  });
  contents.on('will-redirect', (event) => {
    if (!isRendererUrl(event.url)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    openExternally(url);
    return { action: 'deny' };
  });
}

/** Belt and braces: every web contents created later (there should be none) gets the same lock-down. */
export function lockDownAllContents(isRendererUrl: (url: string) => boolean): void {
  app.on('web-contents-created', (_event, contents) => {
    const type = contents.getType();
    if (type === 'window' || type === 'webview' || type === 'browserView') lockDownContents(contents, isRendererUrl);
  });
}
