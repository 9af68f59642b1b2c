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

  it('tells Markdown from plain text', () => {
    expect(looksLikeMarkdown('5')).toBe(false);
    expect(looksLikeMarkdown('Cannot divide 1 by zero')).toBe(false);
    expect(looksLikeMarkdown('See [docs](https://x.y)')).toBe(true);
    expect(looksLikeMarkdown('# Heading\ntext')).toBe(true);
  });
});
