import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../core/support/paths';
import { contentSecurityPolicy } from './csp';

/** A policy as directive → sources. */
function directives(policy: string): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of policy.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) map.set(name, sources);
  }
  return map;
}

/** The renderer's <meta http-equiv="Content-Security-Policy">: it applies to the Electron page as well as the header. */
function metaPolicy(): string {
  const html = readFileSync(join(packageRoot(), 'src-renderer', 'index.html'), 'utf8');
  const content = /http-equiv="Content-Security-Policy"\s+content="([^"]*)"/.exec(html)?.[1];
  if (content === undefined) throw new Error('src-renderer/index.html has no CSP meta tag');
  return content;
}

const hasWebSocketSource = (sources: readonly string[]): boolean => sources.some((source) => /^wss?:/i.test(source));

describe('the Electron page CSP', () => {
  it('lets the built page connect only to itself: no ws: source in the header nor in the page meta tag (the app has no bridge)', () => {
    for (const policy of [contentSecurityPolicy(undefined), metaPolicy()]) {
      const parsed = directives(policy);
      expect(parsed.get('connect-src')).toEqual(["'self'"]);
      for (const [name, sources] of parsed) expect(hasWebSocketSource(sources), `${name} in ${policy}`).toBe(false);
      expect(parsed.get('script-src')).toEqual(["'self'"]);
      expect(parsed.get('object-src')).toEqual(["'none'"]);
    }
  });

  it('may frame only the apps\' scheme (MCP Apps), under the dev server too', () => {
    for (const policy of [contentSecurityPolicy(undefined), contentSecurityPolicy('http://localhost:5173/')])
      expect(directives(policy).get('frame-src')).toEqual(['switchboard-app:']);
  });

  it('under the dev server allows its own HMR socket, and no other loopback port', () => {
    const parsed = directives(contentSecurityPolicy('http://localhost:5173/'));
    expect(parsed.get('connect-src')).toEqual(["'self'", 'ws://localhost:5173']);
    expect(parsed.get('default-src')).toEqual(["'self'"]);
  });
});
