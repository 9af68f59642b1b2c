/*
 * The browser step. An authorization URL comes from a document the server (or whoever answers in its name) chose,
 * so it is treated as hostile: mcp-remote's CVE-2025-6514 turned such a URL into command execution by handing it
 * to a shell-backed opener. Here it is opened only when it is https (or http on a loopback address), has no user
 * info and no character a shell or an OS opener would interpret, and it is opened only through an opener that
 * takes a URL, never a command line (Electron's shell.openExternal); without one it is printed for the person.
 */

export class UnsafeAuthorizationUrlError extends Error {}

const loopbackHosts = new Set(['127.0.0.1', '[::1]', 'localhost']);
/**
 * Characters with a meaning to a shell or to `cmd /c start` that a real authorization endpoint has no use for
 * (`&` and `=` are kept: a query string needs them, and no shell ever sees the URL here).
 */
const shellMetacharacters = /[\s`$|;<>(){}\\^"'!]/;

export function isLoopbackUrl(url: URL): boolean {
  return loopbackHosts.has(url.hostname) || /^127\.\d+\.\d+\.\d+$/.test(url.hostname);
}

/**
 * The authorization endpoint (or the full authorization URL) checked before anything is done with it; throws
 * {@link UnsafeAuthorizationUrlError} saying why not.
 */
export function checkAuthorizationUrl(raw: string | URL): URL {
  const text = String(raw);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UnsafeAuthorizationUrlError(
      `The authorization server's sign-in address is not a URL (${JSON.stringify(text.slice(0, 200))}); it was not opened.`,
    );
  }
  const shown = JSON.stringify(text.slice(0, 200));
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackUrl(url))) {
    throw new UnsafeAuthorizationUrlError(
      `The authorization server's sign-in address ${shown} uses ${url.protocol} — only https (or http on this computer's loopback) is opened, so it was refused. The server's OAuth metadata may be malicious or misconfigured.`,
    );
  }
  if (url.username !== '' || url.password !== '') {
    throw new UnsafeAuthorizationUrlError(`The authorization server's sign-in address ${shown} carries a user name or password; it was refused.`);
  }
  // The raw text, not url.href: the URL parser percent-encodes some of these, and the text is what was sent.
  if (shellMetacharacters.test(text) || [...text].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) {
    throw new UnsafeAuthorizationUrlError(`The authorization server's sign-in address ${shown} contains characters a shell would interpret; it was refused.`);
  }
  return url;
}

/** Opens a URL in the person's browser without a shell (Electron: shell.openExternal). Resolves false if it could not. */
export type UrlOpener = (url: string) => Promise<boolean>;
