import { protocol, type Session, type WebFrameMain } from 'electron';
import type { ProxyResponse } from '../core/apps/proxy-page';
import type { SandboxOrigin } from '../core/apps/service';

/*
 * The desktop app's origin for MCP Apps: the `switchboard-app:` scheme, standard and secure, one host per frame
 * (`switchboard-app://<frameId>/`), so every app's frame is an origin of its own — never the renderer's file:// page
 * nor another app's. It serves only the sandbox proxy page of an open frame, with that frame's headers (CSP and all).
 */

export const appScheme = 'switchboard-app';
const frameUrlPattern = /^switchboard-app:\/\/([0-9a-f]{32})\/$/;

/** Must run before the app is ready (Electron reads privileged schemes once). */
export function registerAppSchemePrivileges(): void {
  protocol.registerSchemesAsPrivileged([
    // No fetch, CORS, service workers or CSP bypass: the scheme only hands out proxy pages to frames.
    { scheme: appScheme, privileges: { standard: true, secure: true } },
  ]);
}

/** The sandbox origin the Electron host is given: the scheme, one origin per frame. */
export const electronSandboxOrigin: SandboxOrigin = {
  frameUrl: (frameId) => ({ url: `${appScheme}://${frameId}/`, origin: `${appScheme}://${frameId}` }),
  // The renderer is a file:// page (an opaque origin) or the dev server: not known here in advance.
  parentOrigins: [],
};

/** Serves the proxy page of an open frame on `session`; anything else is a 404 saying why. */
export function serveAppScheme(session: Session, page: (frameId: string) => ProxyResponse | undefined): void {
  session.protocol.handle(appScheme, (request) => {
    const frameId = frameUrlPattern.exec(request.url)?.[1];
    const found = request.method === 'GET' && frameId !== undefined ? page(frameId) : undefined;
    if (!found)
      return new Response('404: no such app frame is open (it was closed, or Switchboard restarted): open the app again\n', {
        status: 404,
        headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' },
      });
    return new Response(found.body, { status: 200, headers: { ...found.headers, 'cross-origin-resource-policy': 'cross-origin' } });
  });
}

export const isAppSchemeUrl = (url: string): boolean => url.startsWith(`${appScheme}:`);

/**
 * Whether a subframe may navigate to `url`: the renderer's frame may load an app's proxy page; the proxy page's own
 * child only its `srcdoc` (the app never navigates itself away); frames the app made follow its CSP's frame-src.
 */
export function mayNavigateSubframe(frame: WebFrameMain | null, url: string, isRendererUrl: (url: string) => boolean): boolean {
  const parent = frame?.parent;
  if (!parent) return false;
  if (frameUrlPattern.test(url)) return isRendererUrl(parent.url);
  if (isAppSchemeUrl(parent.url)) return url === 'about:srcdoc';
  for (let ancestor: WebFrameMain | null = parent.parent; ancestor; ancestor = ancestor.parent) if (isAppSchemeUrl(ancestor.url)) return /^https:/.test(url);
  return false;
}
