import DOMPurify from 'dompurify';
import { createContext, useContext, useMemo, type MouseEvent } from 'react';
import { useApp } from '../store/useApp';
import type { RemoteImage } from '../store/transcript-entries';
import { renderMarkdown, type MarkdownEnv } from './markdown';
import './markdown.css';

// Second line of defence after markdown-it (raw HTML off, links checked): only inert markup survives.
DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'IMG' && !/^data:image\//i.test(node.getAttribute('src') ?? '')) node.remove();
  if (node.tagName === 'A') {
    const href = node.getAttribute('href') ?? '';
    if (!/^(https?:|mailto:|#)/i.test(href)) node.removeAttribute('href');
  }
});

const purifyConfig = {
  FORBID_TAGS: ['style', 'form', 'input', 'textarea', 'select', 'iframe', 'object', 'embed', 'svg', 'math'],
  FORBID_ATTR: ['style'],
  ADD_ATTR: ['target'],
};

let loadedCache: { source: Record<string, RemoteImage>; images: Record<string, string> } | undefined;
function loadedImages(all: Record<string, RemoteImage>): Record<string, string> {
  if (loadedCache?.source === all) return loadedCache.images;
  const images: Record<string, string> = {};
  for (const [url, image] of Object.entries(all)) if (image.state === 'loaded') images[url] = image.dataUrl;
  loadedCache = { source: all, images };
  return images;
}

export function sanitizedMarkdown(text: string, images: Record<string, string>, links: Pick<MarkdownEnv, 'base' | 'resources'> = {}): string {
  return DOMPurify.sanitize(renderMarkdown(text, { images, ...links }), purifyConfig);
}

/** Where Markdown text came from: the server whose resource it is, and that resource's URI (relative links resolve against it). */
export interface MarkdownSource {
  server: string | undefined;
  uri: string | undefined;
}
export const MarkdownSourceContext = createContext<MarkdownSource>({ server: undefined, uri: undefined });

const noResources: ReadonlySet<string> = new Set();
let uriCache: { source: unknown; uris: ReadonlySet<string> } | undefined;
function resourceUris(list: ReadonlyArray<{ uri: string }> | undefined): ReadonlySet<string> {
  if (!list) return noResources;
  if (uriCache?.source !== list) uriCache = { source: list, uris: new Set(list.map((r) => r.uri)) };
  return uriCache.uris;
}

/**
 * Markdown, sanitised; a click on a "Load image" button fetches that image through main (the page loads none itself),
 * and a link to one of the server's resources opens it in the server's page.
 */
export function Markdown({ text, className }: { text: string; className?: string }) {
  const remote = useApp((s) => s.remoteImages);
  const loadRemoteImage = useApp((s) => s.loadRemoteImage);
  const openResource = useApp((s) => s.openResource);
  const source = useContext(MarkdownSourceContext);
  const listedResources = useApp((s) => (source.server !== undefined ? s.resourceLists[source.server]?.value?.resources : undefined));
  const resources = resourceUris(listedResources);
  const images = loadedImages(remote);
  const html = useMemo(() => sanitizedMarkdown(text, images, { base: source.uri, resources }), [text, images, source.uri, resources]);
  const onClick = (event: MouseEvent<HTMLDivElement>): void => {
    const target = event.target instanceof Element ? event.target.closest('[data-remote-src], [data-resource-uri]') : null;
    const url = target?.getAttribute('data-remote-src');
    if (url) {
      event.preventDefault();
      void loadRemoteImage(url);
      return;
    }
    const uri = target?.getAttribute('data-resource-uri');
    if (uri) {
      event.preventDefault();
      if (source.server !== undefined) openResource(source.server, uri);
    }
  };
  const failed = Object.entries(remote).filter(([url, r]) => r.state === 'error' && text.includes(url));
  return (
    <>
      <div className={`md${className ? ` ${className}` : ''}`} data-testid="markdown" onClick={onClick} dangerouslySetInnerHTML={{ __html: html }} />
      {failed.map(([url, r]) => (
        <p key={url} className="md-image-error">
          Could not load {url}: {r.state === 'error' ? r.message : ''}
        </p>
      ))}
    </>
  );
}
