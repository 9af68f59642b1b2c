import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { stopChild } from './processes';

/** The OAuth fixture (oidc-provider in front of an MCP server), started as a child process. */
export interface OAuthFixture {
  issuer: string;
  mcp: string;
  evil: string;
  child: ChildProcess;
  stats(): Promise<{
    grants: Record<string, number>;
    registrations: number;
    revocations: number;
    authorizations: number;
    evilHits: number;
    evilRegistrations: number;
  }>;
  stop(): Promise<void>;
}

export const oauthFixturePath = join(process.cwd(), 'src-main', 'core', 'fixtures', 'oauth-server.mjs');

export async function startOAuthFixture(args: string[] = []): Promise<OAuthFixture> {
  const child = spawn(process.execPath, [oauthFixturePath, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const lines = createInterface({ input: child.stdout! });
  const first = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`oauth fixture exited (${code}): ${stderr}`)));
  });
  const info = JSON.parse(first) as { issuer: string; mcp: string; stats: string; evil: string };
  return {
    ...info,
    child,
    stats: async () => (await (await fetch(info.stats)).json()) as Awaited<ReturnType<OAuthFixture['stats']>>,
    stop: stopChild(child),
  };
}

/**
 * The person's browser, scripted: GETs the authorization URL and follows every redirect (keeping the
 * authorization server's cookies), until the loopback redirect URI has answered. Returns the final page's status.
 */
export async function followInBrowser(start: URL | string): Promise<{ status: number; url: string }> {
  const cookies = new Map<string, string>();
  let url = new URL(String(start));
  for (let hop = 0; hop < 20; hop++) {
    const cookieHeader = [...cookies.entries()].map(([k, v]) => `${k}=${v}`).join('; ');
    const response = await fetch(url, { redirect: 'manual', headers: cookieHeader ? { cookie: cookieHeader } : {} });
    for (const setCookie of response.headers.getSetCookie()) {
      const [pair = ''] = setCookie.split(';');
      const eq = pair.indexOf('=');
      if (eq > 0) cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
    const location = response.headers.get('location');
    await response.body?.cancel().catch(() => undefined);
    if (response.status < 300 || response.status >= 400 || location === null) return { status: response.status, url: url.href };
    url = new URL(location, url);
  }
  throw new Error(`too many redirects from ${String(start)}`);
}
