import MarkdownIt from 'markdown-it';
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

/*
 * Markdown for model answers and tool results, safe by construction: raw HTML is off (so `<script>` and
 * `<img onerror>` stay text), links are only http(s)/mailto (markdown-it drops javascript:, vbscript:, file:,
 * and data: other than images), and remote images become a "Load image" button — data: images show inline.
 * Any other link (`structure.md`, `file:///…`) is a reference to a resource: resolved against the URI of the
 * resource being shown (`base`), it becomes a button-like link that opens that resource when the server lists it
 * (`resources`), an http(s) link when it resolves to one, and otherwise just its text — never raw Markdown source.
 * The HTML it produces is sanitised again with DOMPurify before it reaches the page (Markdown.tsx).
 * Pure string work (no DOM), so it is unit-tested under Node.
 */

const languages = { bash, css, diff, go, javascript, json, markdown, python, rust, shell, sql, typescript, xml, yaml };
for (const [name, language] of Object.entries(languages)) hljs.registerLanguage(name, language);
hljs.registerAliases(['js', 'jsx', 'mjs'], { languageName: 'javascript' });
hljs.registerAliases(['ts', 'tsx'], { languageName: 'typescript' });
hljs.registerAliases(['sh', 'zsh', 'console'], { languageName: 'bash' });
hljs.registerAliases(['py'], { languageName: 'python' });
hljs.registerAliases(['html', 'svg'], { languageName: 'xml' });
hljs.registerAliases(['yml'], { languageName: 'yaml' });
hljs.registerAliases(['md'], { languageName: 'markdown' });

const maxHighlightChars = 50_000;

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

export interface MarkdownEnv {
  /** Remote image URLs the user chose to load, with their data: URLs. */
  images: Readonly<Record<string, string>>;
  /** The URI of the resource this text is (relative links resolve against it). */
  base?: string | undefined;
  /** The URIs of the resources the server lists: a link to one of them opens it. */
  resources?: ReadonlySet<string> | undefined;
  [key: string]: unknown;
}

/** What each open link became, so that its close matches (an `<a>` or a plain `<span>`). */
interface RenderEnv extends MarkdownEnv {
  linkStack: Array<'a' | 'span'>;
}
const attr = (value: string | number | null | undefined): string => (value === null || value === undefined ? '' : String(value));

const md = new MarkdownIt({
  html: false,
  linkify: true,
  breaks: false,
  highlight(code, lang) {
    const language = lang.trim().toLowerCase();
    if (code.length <= maxHighlightChars && language && hljs.getLanguage(language)) {
      try {
        return hljs.highlight(code, { language, ignoreIllegals: true }).value;
      } catch {
        // fall through to plain
      }
    }
    return escapeHtml(code);
  },
});

const safeLink = /^(https?:|mailto:)/i;
const dataImage = /^data:image\/(png|jpe?g|gif|webp|avif|bmp);base64,[A-Za-z0-9+/=\s]+$/i;
const remoteImage = /^https?:\/\//i;

/** Schemes never followed, not even as a resource reference (their text stays as written). */
const scriptScheme = /^\s*(javascript|vbscript|data):/i;

md.validateLink = (url: string): boolean => {
  const trimmed = url.trim();
  return safeLink.test(trimmed) || dataImage.test(trimmed) || trimmed.startsWith('#') || !scriptScheme.test(trimmed);
};

/** `href` resolved against `base` (relative references), or as it is when absolute; undefined when neither works. */
export function resolveLink(href: string, base: string | undefined): string | undefined {
  try {
    return base === undefined ? new URL(href).href : new URL(href, base).href;
  } catch {
    return undefined;
  }
}

/** Whether `uri` (or its percent-decoded form) is one of the listed resources. */
function listed(uri: string, resources: ReadonlySet<string> | undefined): boolean {
  if (!resources) return false;
  if (resources.has(uri)) return true;
  try {
    return resources.has(decodeURI(uri));
  } catch {
    return false;
  }
}

const defaultLinkOpen = md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
const defaultLinkClose = md.renderer.rules.link_close ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
const renderEnvOf = (env: unknown): RenderEnv => env as RenderEnv;
md.renderer.rules.link_open = (tokens, idx, options, rawEnv, self) => {
  const env = renderEnvOf(rawEnv);
  const token = tokens[idx];
  const href = attr(token?.attrGet('href')).trim();
  if (!token || href.startsWith('#') || safeLink.test(href)) {
    if (token && !href.startsWith('#')) {
      token.attrSet('target', '_blank');
      token.attrSet('rel', 'noopener noreferrer nofollow');
    }
    env.linkStack.push('a');
    return defaultLinkOpen(tokens, idx, options, rawEnv, self);
  }
  // A reference to a resource: relative to the one shown, or an absolute URI of another scheme.
  const resolved = resolveLink(href, env.base);
  if (resolved !== undefined && listed(resolved, env.resources)) {
    env.linkStack.push('a');
    const uri = escapeHtml(resolved);
    return `<a href="#" class="md-resource-link" data-resource-uri="${uri}" title="${uri}">`;
  }
  if (resolved !== undefined && safeLink.test(resolved)) {
    env.linkStack.push('a');
    return `<a href="${escapeHtml(resolved)}" target="_blank" rel="noopener noreferrer nofollow">`;
  }
  env.linkStack.push('span');
  return `<span class="md-link-text" title="${escapeHtml(resolved ?? href)}">`;
};
md.renderer.rules.link_close = (tokens, idx, options, rawEnv, self) =>
  renderEnvOf(rawEnv).linkStack.pop() === 'span' ? '</span>' : defaultLinkClose(tokens, idx, options, rawEnv, self);

md.renderer.rules.image = (tokens, idx, _options, rawEnv) => {
  const env = rawEnv as MarkdownEnv | undefined;
  const token = tokens[idx];
  const src = attr(token?.attrGet('src')).trim();
  const alt = token ? escapeHtml(token.content) : '';
  if (dataImage.test(src)) return `<img class="md-image" src="${escapeHtml(src)}" alt="${alt}">`;
  if (remoteImage.test(src)) {
    const loaded = env?.images[src];
    if (loaded !== undefined && dataImage.test(loaded)) return `<img class="md-image" src="${escapeHtml(loaded)}" alt="${alt}">`;
    let host = src;
    try {
      host = new URL(src).host;
    } catch {
      // keep the text
    }
    return `<button type="button" class="md-remote-image" data-remote-src="${escapeHtml(src)}" title="${escapeHtml(src)}">Load image${alt ? ` “${alt}”` : ''} from ${escapeHtml(host)}</button>`;
  }
  return `<span class="md-image-blocked">[image${alt ? `: ${alt}` : ''}]</span>`;
};

export function renderMarkdown(text: string, env: MarkdownEnv = { images: {} }): string {
  const linkStack: RenderEnv['linkStack'] = [];
  return md.render(text, { ...env, linkStack });
}

/** Whether plain text reads better as Markdown (tool results are usually plain). */
export function looksLikeMarkdown(text: string): boolean {
  return /(^|\n)\s{0,3}(#{1,6}\s|[-*+]\s|\d+\.\s|>\s|```)|\[[^\]\n]+\]\([^)\n]+\)|\*\*[^*\n]+\*\*|(^|\n)\|.+\|/.test(text);
}

export { escapeHtml };
