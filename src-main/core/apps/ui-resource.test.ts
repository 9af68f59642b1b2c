import { describe, expect, it } from 'vitest';
import { appMimeType, checkAppResource, loadAppResource, maxAppHtmlBytes } from './ui-resource';

const uri = 'ui://x/view.html';
const read = (item: Record<string, unknown>): unknown => ({ contents: [{ uri, mimeType: appMimeType, ...item }] });

describe('checkAppResource', () => {
  it('takes HTML as text or base64 blob, with the _meta.ui it declares', () => {
    const html = '<!DOCTYPE html><p>hi</p>';
    const fromText = checkAppResource(
      uri,
      read({ text: html, _meta: { ui: { domain: 'a.example', prefersBorder: false, csp: { frameDomains: [] } } } }),
      's/t',
    );
    expect(fromText.app).toMatchObject({ status: 'ok', domain: 'a.example', prefersBorder: false, csp: { frameDomains: [] } });
    expect(fromText.app.csp).not.toHaveProperty('connectDomains');
    const fromBlob = checkAppResource(uri, read({ blob: Buffer.from(html).toString('base64') }), 's/t');
    expect(fromBlob.html).toBe(html);
    expect(fromBlob.app.digest).toBe(fromText.app.digest);
  });

  it('says what is wrong: not ui://, no content, empty, too large, a malformed _meta.ui, a failed read', async () => {
    expect(checkAppResource('https://x/view.html', undefined, 's/t').app.problem).toContain('must start with ui://');
    expect(checkAppResource(uri, { contents: [] }, 's/t').app.problem).toContain('gave no content item');
    expect(checkAppResource(uri, read({}), 's/t').app.problem).toContain('neither text nor blob');
    expect(checkAppResource(uri, read({ text: '  ' }), 's/t').app.problem).toContain('is empty');
    expect(checkAppResource(uri, read({ text: 'x'.repeat(maxAppHtmlBytes + 1) }), 's/t').app.problem).toContain(`more than the ${maxAppHtmlBytes}`);
    expect(checkAppResource(uri, read({ text: '<p>', _meta: { ui: { csp: { connectDomains: 'https://a' } } } }), 's/t').app.problem).toContain(
      'csp.connectDomains',
    );
    const failed = await loadAppResource(() => Promise.reject(new Error('Resource not found')), uri, 's/t');
    expect(failed.app).toMatchObject({ status: 'invalid', problem: expect.stringContaining('Resource not found') });
  });
  it('keeps csp.wasmUnsafeEval when declared (a boolean; anything else makes the resource invalid)', () => {
    const html = '<!DOCTYPE html><p>hi</p>';
    expect(checkAppResource(uri, read({ text: html, _meta: { ui: { csp: { wasmUnsafeEval: true } } } }), 's/t').app.csp).toEqual({ wasmUnsafeEval: true });
    expect(checkAppResource(uri, read({ text: html, _meta: { ui: { csp: { connectDomains: [] } } } }), 's/t').app.csp).not.toHaveProperty('wasmUnsafeEval');
    expect(checkAppResource(uri, read({ text: html, _meta: { ui: { csp: { wasmUnsafeEval: 'yes' } } } }), 's/t').app.status).toBe('invalid');
  });
});
