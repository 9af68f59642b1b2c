import { describe, expect, it } from 'vitest';
import { createRedactor, looksLikeToken, redactArgs, redactUrl } from './redact';

describe('redaction', () => {
  const redactor = createRedactor({ secretValues: () => ['s3cr3t-VALUE-99', 'ab', 'quote"d-secret'] });

  it('hides sensitive fields by name, and known secret values anywhere, copy-on-write', () => {
    const message = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'x',
        arguments: { apiKey: 'k-123', password: 'pw', nested: [{ accessToken: 'tok' }], maxTokens: 100, note: 'uses s3cr3t-VALUE-99 twice: s3cr3t-VALUE-99' },
        _meta: { progressToken: 7 },
      },
    };
    const out = redactor.value(message);
    expect(out).not.toBe(message);
    expect(out.params.arguments).toEqual({
      apiKey: '<redacted>',
      password: '<redacted>',
      nested: [{ accessToken: '<redacted>' }],
      maxTokens: 100,
      note: 'uses <redacted> twice: <redacted>',
    });
    expect(out.params._meta.progressToken).toBe(7);
    expect(message.params.arguments.password).toBe('pw'); // the input is not modified
  });

  it('returns the same object when there is nothing to redact; ignores too-short secrets', () => {
    const clean = { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'about a cab' }] }, _meta: { progressToken: 'p' } };
    expect(redactor.value(clean)).toBe(clean);
  });

  it('finds a secret JSON-escaped inside a text, and bearer credentials', () => {
    expect(redactor.text(JSON.stringify({ k: 'quote"d-secret' }))).toBe('{"k":"<redacted>"}');
    expect(redactor.text('curl -H "Authorization: Bearer abcdef.123"')).toBe('curl -H "Authorization: Bearer <redacted>"');
  });

  it('finds a secret base64-encoded (standard and url-safe, padded or not, alone or inside a longer text) and URL-encoded', () => {
    const secret = 'p@ss w?rd/+~-0123456789';
    const own = createRedactor({ secretValues: () => [secret] });
    const b64 = Buffer.from(secret).toString('base64');
    const url = Buffer.from(secret).toString('base64url');
    expect(b64).toMatch(/=$/);
    for (const form of [b64, b64.replace(/=+$/, ''), url, `${url}=`, encodeURIComponent(secret)]) expect(own.text(`x ${form} y`), form).toBe('x <redacted> y');
    // Inside a longer encoded text, at each of the three byte offsets: no run of it that stands for the secret is left.
    for (const before of ['', 'u', 'us', 'user:']) {
      for (const encoding of ['base64', 'base64url'] as const) {
        const encoded = Buffer.from(`${before}${secret}\n`).toString(encoding);
        const out = own.text(`token=${encoded}`);
        expect(out, `${before} ${encoding}`).toContain('<redacted>');
        // What is left decodes to at most the bytes around the secret and a few of its first or last.
        const left = out
          .replace('token=', '')
          .split('<redacted>')
          .map((part) => Buffer.from(part, encoding).toString('latin1'))
          .join('');
        expect(left.length, `${before} ${encoding}: ${left}`).toBeLessThanOrEqual(before.length + 1 + 4);
      }
    }
    // Short texts that merely look like base64 are not touched.
    expect(own.text('version 1.2.3, id YWJj')).toBe('version 1.2.3, id YWJj');
  });

  it('headers: by name, then by value', () => {
    expect(redactor.headers({ Authorization: 'Bearer x', Cookie: 'a=b', 'X-Api-Key': 'k', 'mcp-session-id': 'sess', 'x-note': 'has s3cr3t-VALUE-99' })).toEqual(
      {
        Authorization: '<redacted>',
        Cookie: '<redacted>',
        'X-Api-Key': '<redacted>',
        'mcp-session-id': 'sess',
        'x-note': 'has <redacted>',
      },
    );
  });

  it('arguments that look like secrets', () => {
    expect(
      redactArgs(['server.js', '--token', 'abc', '--api-key=xyz', '--port', '8080', 'sk-ant-api03-abcdefghijkl', '--verbose', 's3cr3t-VALUE-99'], redactor),
    ).toEqual(['server.js', '--token', '<redacted>', '--api-key=<redacted>', '--port', '8080', '<redacted>', '--verbose', '<redacted>']);
    expect(looksLikeToken('/usr/lib/node_modules/some-package/dist/index.js')).toBe(false);
    expect(looksLikeToken('ghp_abcdefghijklmnopqrstuvwxyz0123456789')).toBe(true);
    expect(looksLikeToken('A1b2C3d4E5f6G7h8I9j0K1l2M3')).toBe(true);
    expect(looksLikeToken('@modelcontextprotocol/server-everything')).toBe(false);
  });

  it('URLs: user info and query values hidden, path kept', () => {
    expect(redactUrl('https://user:pw@example.com/mcp?key=abc&x=1')).toBe('https://redacted@example.com/mcp?key=<redacted>&x=<redacted>');
    expect(redactUrl('http://127.0.0.1:3000/mcp')).toBe('http://127.0.0.1:3000/mcp');
  });
});
