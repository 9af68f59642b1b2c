import DOMPurify from 'dompurify';
import { useMemo, type MouseEvent } from 'react';
import { useApp } from '../store/useApp';
import type { RemoteImage } from '../store/transcript-entries';
import { renderMarkdown } from './markdown';

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

export function sanitizedMarkdown(text: string, images: Record<string, string>): string {
  return DOMPurify.sanitize(renderMarkdown(text, { images }), purifyConfig);
}

/** Markdown, sanitised; a click on a "Load image" button fetches that image through main (the page loads none itself). */
export function Markdown({ text, className }: { text: string; className?: string }) {
  const remote = useApp((s) => s.remoteImages);
  const loadRemoteImage = useApp((s) => s.loadRemoteImage);
  const images = loadedImages(remote);
  const html = useMemo(() => sanitizedMarkdown(text, images), [text, images]);
  const onClick = (event: MouseEvent<HTMLDivElement>): void => {
    const target = event.target instanceof Element ? event.target.closest('[data-remote-src]') : null;
    const url = target?.getAttribute('data-remote-src');
    if (url) {
      event.preventDefault();
      void loadRemoteImage(url);
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
