import { describe, expect, it } from 'vitest';
import { looksLikeMarkdown, renderMarkdown } from './markdown';

describe('renderMarkdown', () => {
  it('renders Markdown with highlighted code', () => {
    const html = renderMarkdown('# Title\n\n**bold** and `code`\n\n```json\n{"a": 1}\n```');
    expect(html).toContain('<h1>Title</h1>');
    expect(html).toContain('<strong>bold</strong>');
    expect(html).toContain('<span class="hljs-attr">&quot;a&quot;</span>');
  });

  it('keeps raw HTML as text: no tags, no handlers', () => {
    const html = renderMarkdown('<img src=x onerror="window.pwned=1"> <script>window.pwned=2</script> <a href="javascript:alert(1)">x</a>');
    expect(html).not.toMatch(/<img|<script|<a /);
    expect(html).toContain('&lt;img src=x onerror=&quot;window.pwned=1&quot;&gt;');
  });

  it('drops javascript:, vbscript:, file: and data:text links; http(s) links open outside', () => {
    for (const href of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', 'vbscript:msgbox(1)', 'file:///etc/passwd', 'data:text/html,<script>alert(1)</script>']) {
      expect(renderMarkdown(`[click](${href})`)).not.toContain('<a');
    }
    expect(renderMarkdown('[site](https://example.com)')).toBe(
      '<p><a href="https://example.com" target="_blank" rel="noopener noreferrer nofollow">site</a></p>\n',
    );
  });

  it('shows data: images inline and puts remote images behind a button until loaded', () => {
    const data = 'data:image/png;base64,iVBORw0KGgo=';
    expect(renderMarkdown(`![dot](${data})`)).toContain(`<img class="md-image" src="${data}" alt="dot">`);
    const remote = renderMarkdown('![chart](https://img.example.com/c.png)');
    expect(remote).not.toContain('<img');
    expect(remote).toContain('data-remote-src="https://img.example.com/c.png"');
    expect(remote).toContain('from img.example.com');
    const loaded = renderMarkdown('![chart](https://img.example.com/c.png)', { images: { 'https://img.example.com/c.png': data } });
    expect(loaded).toContain(`<img class="md-image" src="${data}"`);
  });

  it('relative links: a listed resource opens as one, otherwise the link text alone (never the raw source)', () => {
    const base = 'file:///project/README.md';
    const resources = new Set(['file:///project/structure.md', 'file:///project/docs/a%20b.md']);
    const opened = renderMarkdown('See [Project Structure](structure.md).', { images: {}, base, resources });
    expect(opened).toBe(
      '<p>See <a href="#" class="md-resource-link" data-resource-uri="file:///project/structure.md" title="file:///project/structure.md">Project Structure</a>.</p>\n',
    );
    expect(renderMarkdown('[up](../project/docs/a%20b.md)', { images: {}, base, resources })).toContain('data-resource-uri="file:///project/docs/a%20b.md"');
    // Not a listed resource, or no resource to resolve against: the text, with where it points as a title.
    const unlisted = renderMarkdown('[Guide](guide.md) and [x](file:///etc/passwd)', { images: {}, base, resources });
    expect(unlisted).toBe(
      '<p><span class="md-link-text" title="file:///project/guide.md">Guide</span> and <span class="md-link-text" title="file:///etc/passwd">x</span></p>\n',
    );
    const noBase = renderMarkdown('[Project Structure](structure.md)');
    expect(noBase).toBe('<p><span class="md-link-text" title="structure.md">Project Structure</span></p>\n');
    expect(noBase).not.toContain('](');
    // Relative to a web page: a web link; custom schemes resolve like paths.
    expect(renderMarkdown('[next](next.html)', { images: {}, base: 'https://docs.example.com/guide/index.html' })).toContain(
      '<a href="https://docs.example.com/guide/next.html" target="_blank"',
    );
    expect(renderMarkdown('[b](b.md)', { images: {}, base: 'docs://project/a.md', resources: new Set(['docs://project/b.md']) })).toContain(
      'data-resource-uri="docs://project/b.md"',
    );
    // Script schemes stay as written (not links), even when disguised.
    for (const href of ['javascript:alert(1)', 'java%0ascript:alert(1)']) {
      expect(renderMarkdown(`[x](${href})`, { images: {}, base, resources })).not.toMatch(/<a |data-resource-uri/);
    }
  });

  it('tells Markdown from plain text', () => {
    expect(looksLikeMarkdown('5')).toBe(false);
    expect(looksLikeMarkdown('Cannot divide 1 by zero')).toBe(false);
    expect(looksLikeMarkdown('See [docs](https://x.y)')).toBe(true);
    expect(looksLikeMarkdown('# Heading\ntext')).toBe(true);
  });
});
