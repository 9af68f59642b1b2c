// Electron-free (no `electron` import), so the policy is unit-tested under Node.

/** The renderer's Content-Security-Policy. Dev (Vite dev server) needs inline scripts and the HMR socket. */
export function contentSecurityPolicy(devServerUrl: string | undefined): string {
  if (devServerUrl) {
    const ws = new URL(devServerUrl);
    ws.protocol = ws.protocol === 'https:' ? 'wss:' : 'ws:';
    return [
      "default-src 'self'",
      "script-src 'self' 'unsafe-inline'",
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data:",
      `connect-src 'self' ${ws.origin}`,
      // MCP Apps' frames (app-scheme.ts): the scheme's origins only.
      'frame-src switchboard-app:',
      "object-src 'none'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
    ].join('; ');
  }
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "connect-src 'self'",
    'frame-src switchboard-app:',
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'none'",
  ].join('; ');
}
