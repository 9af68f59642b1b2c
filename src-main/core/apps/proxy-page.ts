import type { AppPermissionName } from '../../../src-shared/host-api';

/*
 * The sandbox proxy page (MCP Apps, web hosts: the double iframe). It is served on an origin of its own (headless: a
 * second loopback port; Electron: the `switchboard-app:` scheme), one page per frame, with the frame's CSP as its
 * header. It tells its parent `ui/notifications/sandbox-proxy-ready`, takes `ui/notifications/sandbox-resource-ready`
 * from its parent only (once), puts the app's HTML in an inner `srcdoc` frame — which inherits the CSP and runs on an
 * opaque origin (never `allow-same-origin`: the app must not reach this page, its URL or another frame's) — and then
 * relays every other message, only between its parent and that inner frame.
 */

/** What the host tells the sandbox about one frame. */
export interface ProxyFrame {
  /** The CSP header value (buildAppCsp). */
  csp: string;
  /** Only these reach the inner frame's `allow` (and the page's Permissions-Policy). */
  granted: readonly AppPermissionName[];
  /** The inner frame's accessible name. */
  title: string;
}

export interface ProxyResponse {
  headers: Record<string, string>;
  body: string;
}

const featureOf: Record<AppPermissionName, string> = {
  camera: 'camera',
  microphone: 'microphone',
  geolocation: 'geolocation',
  clipboardWrite: 'clipboard-write',
};

/** The iframe `allow` value for granted permissions (as ext-apps' buildAllowAttribute words it). */
export function allowAttribute(granted: readonly AppPermissionName[]): string {
  return granted.map((name) => featureOf[name]).join('; ');
}

/** Sandbox tokens the inner frame may get: scripts and in-page forms. Popups, downloads, navigation: through the host. */
export const innerSandboxTokens: readonly string[] = ['allow-scripts', 'allow-forms'];

// Runs under the frame's CSP (script-src 'unsafe-inline' is always there: apps are inline too). Plain ES2017.
const proxyScript = `(function () {
  'use strict';
  var config = JSON.parse(document.getElementById('switchboard-frame').textContent);
  var parentWindow = window.parent;
  if (parentWindow === window) { document.body.textContent = 'This page is only shown inside Switchboard.'; return; }
  var inner = null;
  var parentOrigin = null;
  var allowed = ${JSON.stringify(innerSandboxTokens)};
  function sandboxOf(asked) {
    var tokens = typeof asked === 'string' ? asked.split(/\\s+/) : [];
    var out = ['allow-scripts'];
    for (var i = 0; i < tokens.length; i++) if (allowed.indexOf(tokens[i]) >= 0 && out.indexOf(tokens[i]) < 0) out.push(tokens[i]);
    return out.join(' ');
  }
  function isSandboxMessage(data) {
    return data !== null && typeof data === 'object' && typeof data.method === 'string' && data.method.indexOf('ui/notifications/sandbox-') === 0;
  }
  window.addEventListener('message', function (event) {
    var data = event.data;
    if (event.source === parentWindow) {
      if (config.parentOrigins.length > 0 && config.parentOrigins.indexOf(event.origin) < 0) return;
      if (isSandboxMessage(data)) {
        if (data.method !== 'ui/notifications/sandbox-resource-ready' || inner !== null) return;
        var params = data.params || {};
        if (typeof params.html !== 'string') return;
        parentOrigin = event.origin;
        inner = document.createElement('iframe');
        inner.setAttribute('sandbox', sandboxOf(params.sandbox));
        if (config.allow !== '') inner.setAttribute('allow', config.allow);
        inner.setAttribute('title', config.title);
        inner.setAttribute('referrerpolicy', 'no-referrer');
        inner.srcdoc = params.html;
        document.body.appendChild(inner);
        return;
      }
      if (inner !== null && inner.contentWindow !== null && event.origin === parentOrigin) inner.contentWindow.postMessage(data, '*');
      return;
    }
    // A file:// renderer (the desktop app) has an opaque origin no targetOrigin can name: its window is the parent all the same.
    if (inner !== null && event.source === inner.contentWindow && parentOrigin !== null && !isSandboxMessage(data))
      parentWindow.postMessage(data, parentOrigin === 'null' || parentOrigin.indexOf('file:') === 0 ? '*' : parentOrigin);
  });
  parentWindow.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} }, config.parentOrigins.length === 1 ? config.parentOrigins[0] : '*');
})();`;

/** JSON inside a <script type="application/json">: nothing in it can close the element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}

/**
 * The proxy page for one frame and the headers it is served with. `parentOrigins`: the origins allowed to embed it
 * and talk to it (the renderer's); empty when the embedding origin cannot be known in advance.
 */
export function proxyPage(frame: ProxyFrame, parentOrigins: readonly string[]): ProxyResponse {
  const config = { allow: allowAttribute(frame.granted), title: frame.title, parentOrigins };
  const body = `<!DOCTYPE html>
<html><head><meta charset="utf-8"><meta name="referrer" content="no-referrer"><title>${escapeHtml(frame.title)}</title>
<style>html,body{margin:0;padding:0;height:100%;overflow:hidden;background:transparent}iframe{border:0;width:100%;height:100%;display:block}</style>
<script type="application/json" id="switchboard-frame">${scriptJson(config)}</script>
</head><body><script>${proxyScript}</script></body></html>
`;
  const policy = (['camera', 'microphone', 'geolocation', 'clipboardWrite'] as const)
    .map((name) => `${featureOf[name]}=${frame.granted.includes(name) ? '*' : '()'}`)
    .join(', ');
  return {
    body,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': frame.csp,
      'permissions-policy': policy,
      'cross-origin-resource-policy': 'same-site',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
    },
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
