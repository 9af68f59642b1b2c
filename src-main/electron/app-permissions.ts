import type { AppPermissionName } from '../../src-shared/contract/apps';

/*
 * Which browser permission requests of the desktop app's session an MCP App gets. Electron-free (security.ts feeds it
 * what Electron says), so it is tested without Electron. Everything else keeps being refused.
 */

/** One request (or check) as Electron reports it. */
export interface PermissionAsk {
  /** Electron's name: `media`, `geolocation`, `clipboard-sanitized-write`, … */
  permission: string;
  /** `media`: which devices (`video` is the camera, `audio` the microphone). */
  mediaTypes?: readonly string[];
  /** The requesting frame's last URL. */
  requestingUrl: string | undefined;
  /**
   * The frame ids of the app frames on the page that may have asked: every app `srcdoc` frame whose parent is a
   * `switchboard-app://<frameId>/` proxy page. An app runs on an opaque origin (`about:srcdoc`), so Electron cannot
   * tell which one asked: all of them must have the permission.
   */
  appFrames: readonly string[];
}

const proxyUrl = /^switchboard-app:\/\/([0-9a-f]{32})\/$/;

/** The frame id of a `switchboard-app:` proxy page URL, or undefined. */
export function appFrameIdOf(url: string | undefined): string | undefined {
  return url === undefined ? undefined : proxyUrl.exec(url)?.[1];
}

/** The MCP Apps permissions a request needs; undefined when it is not one an app may be granted. */
export function appPermissionsNeeded(ask: Pick<PermissionAsk, 'permission' | 'mediaTypes'>): AppPermissionName[] | undefined {
  switch (ask.permission) {
    case 'geolocation':
      return ['geolocation'];
    case 'clipboard-sanitized-write':
      return ['clipboardWrite'];
    case 'media': {
      const types = ask.mediaTypes ?? [];
      if (types.length === 0 || types.some((t) => t !== 'video' && t !== 'audio')) return undefined;
      return [...new Set(types.map((t): AppPermissionName => (t === 'video' ? 'camera' : 'microphone')))];
    }
    default:
      return undefined;
  }
}

/**
 * Granted only to an app frame (its proxy page, or the app's own `srcdoc` frame under one) when every frame that may
 * have asked is open and was granted each permission needed (`granted(frameId)`: the frame's `permissionsGranted`,
 * undefined when the host has no such frame). Anything else — the renderer, an https frame the app embeds, a
 * permission apps never get — is refused.
 */
export function mayGrantAppPermission(ask: PermissionAsk, granted: (frameId: string) => readonly AppPermissionName[] | undefined): boolean {
  const needed = appPermissionsNeeded(ask);
  if (needed === undefined) return false;
  const own = appFrameIdOf(ask.requestingUrl);
  const frames = own !== undefined ? [own] : ask.requestingUrl === 'about:srcdoc' ? ask.appFrames : [];
  if (frames.length === 0) return false;
  return frames.every((frameId) => {
    const has = granted(frameId);
    return has !== undefined && needed.every((p) => has.includes(p));
  });
}
