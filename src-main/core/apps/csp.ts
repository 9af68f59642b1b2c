import type { AppCsp } from '../../../src-shared/host-api';

/*
 * The Content-Security-Policy an app's frame runs under, built from its resource's `_meta.ui.csp` (MCP Apps spec
 * 2026-01-26). The sandbox proxy page is served with it and the app's `srcdoc` frame inherits it, so nothing the app
 * does (a <meta> CSP of its own can only add restrictions) loosens it. Nothing declared: no network at all, inline
 * script and style only. Declared origins are added to their directives only after a check: https origins (wss too
 * for connections), or http/ws on loopback; a leftmost `*.` label as the spec allows; anything else is dropped
 * with the reason, never widened to `*`.
 */

export type CspKey = 'connectDomains' | 'resourceDomains' | 'frameDomains' | 'baseUriDomains';
const cspKeys: readonly CspKey[] = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'];

/** A declared origin left out of the policy, and why (shown to the person and in the server's log). */
export interface DroppedOrigin {
  key: CspKey;
  value: string;
  reason: string;
}

export interface AppCspPolicy {
  /** The header value. */
  header: string;
  /** What the policy allows beyond the default: only the declared origins that passed the check. */
  csp: AppCsp;
  dropped: DroppedOrigin[];
}

/** More origins than this per directive are dropped: a policy is a list of a few services, not a crawl. */
export const maxOriginsPerKey = 32;

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);
const label = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const hostPattern = new RegExp(`^(?:\\*\\.)?${label}(?:\\.${label})*$`);
const ipv4Pattern = /^\d{1,3}(?:\.\d{1,3}){3}$/;

/** One declared origin, normalized (`scheme://host[:port]`), or why it is refused. */
export function checkOrigin(raw: string, key: CspKey): { origin: string } | { reason: string } {
  const value = raw.trim().toLowerCase().replace(/\/$/, '');
  if (value === '' || value === '*') return { reason: 'a bare "*" would allow every origin' };
  if (/[\s;,'"]/.test(value)) return { reason: 'not an origin (spaces, quotes, ";" or "," are not allowed)' };
  const match = /^([a-z][a-z0-9+.-]*):\/\/(\[[0-9a-f:]+\]|[^/:?#]+)(?::(\d{1,5}))?$/.exec(value);
  if (!match) return { reason: 'not an origin: expected scheme://host[:port], without a path' };
  const [, scheme = '', host = '', port] = match;
  const secure = scheme === 'https' || (key === 'connectDomains' && scheme === 'wss');
  const plain = scheme === 'http' || (key === 'connectDomains' && scheme === 'ws');
  if (!secure && !plain) return { reason: `scheme "${scheme}:" is not allowed (https${key === 'connectDomains' ? ' or wss' : ''}; http only on loopback)` };
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65_535)) return { reason: `port ${port} is out of range` };
  if (plain) {
    if (!loopbackHosts.has(host)) return { reason: `${scheme}: is allowed only on loopback (localhost, 127.0.0.1, [::1]); use https` };
    return { origin: `${scheme}://${host}${port !== undefined ? `:${port}` : ''}` };
  }
  if (host.startsWith('[')) return { origin: `${scheme}://${host}${port !== undefined ? `:${port}` : ''}` };
  if (!hostPattern.test(host)) return { reason: `"${host}" is not a host name (use punycode for other scripts; "*" only as the leftmost label)` };
  if (host.startsWith('*.')) {
    const rest = host.slice(2);
    if (ipv4Pattern.test(rest)) return { reason: 'a wildcard cannot stand for part of an IP address' };
    if (!rest.includes('.')) return { reason: `"*.${rest}" would allow a whole top-level domain` };
  }
  if (ipv4Pattern.test(host) && host.split('.').some((part) => Number(part) > 255)) return { reason: `"${host}" is not an IP address` };
  return { origin: `${scheme}://${host}${port !== undefined ? `:${port}` : ''}` };
}

/** The policy for a frame: the restrictive default plus what `declared` adds after the check. */
export function buildAppCsp(declared: AppCsp | undefined): AppCspPolicy {
  const csp: AppCsp = {};
  const dropped: DroppedOrigin[] = [];
  for (const key of cspKeys) {
    const values = declared?.[key];
    if (values === undefined) continue;
    const kept: string[] = [];
    for (const value of values) {
      const checked = checkOrigin(value, key);
      if ('reason' in checked) dropped.push({ key, value, reason: checked.reason });
      else if (kept.length >= maxOriginsPerKey) dropped.push({ key, value, reason: `more than ${maxOriginsPerKey} origins declared` });
      else if (!kept.includes(checked.origin)) kept.push(checked.origin);
    }
    csp[key] = kept;
  }
  // Only `true` turns it on: WebAssembly compiles, JavaScript eval stays off (no 'unsafe-eval' in any case).
  const wasm = declared?.wasmUnsafeEval === true;
  if (wasm) csp.wasmUnsafeEval = true;
  const resources = csp.resourceDomains ?? [];
  const list = (base: string[], extra: readonly string[] | undefined): string => {
    const all = [...base, ...(extra ?? [])];
    return all.length === 0 ? "'none'" : all.join(' ');
  };
  const directives: [string, string][] = [
    ['default-src', "'none'"],
    // Apps are single HTML files: their own script and style are inline. Nothing else runs (no eval; WebAssembly
    // only when the resource declares `wasmUnsafeEval`).
    ['script-src', list(wasm ? ["'unsafe-inline'", "'wasm-unsafe-eval'"] : ["'unsafe-inline'"], resources)],
    ['style-src', list(["'unsafe-inline'"], resources)],
    ['img-src', list(['data:', 'blob:'], resources)],
    ['font-src', list(['data:'], resources)],
    ['media-src', list(['data:', 'blob:'], resources)],
    ['connect-src', list([], csp.connectDomains)],
    ['frame-src', list([], csp.frameDomains)],
    ['base-uri', list([], csp.baseUriDomains)],
    ['object-src', "'none'"],
    ['worker-src', "'none'"],
    // Forms are allowed by the sandbox for in-page handling; submitting one away is navigation, which goes through the host.
    ['form-action', "'none'"],
  ];
  return { header: directives.map(([name, value]) => `${name} ${value}`).join('; '), csp, dropped };
}
