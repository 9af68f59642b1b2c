import { describe, expect, it } from 'vitest';
import { buildAppCsp, checkOrigin } from './csp';

const directives = (header: string): Map<string, string> =>
  new Map(
    header.split('; ').map((d) => {
      const [name = '', ...rest] = d.split(' ');
      return [name, rest.join(' ')];
    }),
  );

describe('buildAppCsp', () => {
  it("wasmUnsafeEval: 'wasm-unsafe-eval' in script-src only, and only when declared true", () => {
    const on = directives(buildAppCsp({ wasmUnsafeEval: true }).header);
    expect(on.get('script-src')).toBe("'unsafe-inline' 'wasm-unsafe-eval'");
    expect([...on].filter(([, v]) => v.includes('wasm')).map(([k]) => k)).toEqual(['script-src']);
    expect(buildAppCsp({ wasmUnsafeEval: true }).csp).toEqual({ wasmUnsafeEval: true });
    expect(buildAppCsp({ wasmUnsafeEval: true }).header).not.toContain("'unsafe-eval'");
    for (const declared of [undefined, {}, { wasmUnsafeEval: false }]) {
      expect(buildAppCsp(declared).header).not.toContain('wasm');
      expect(buildAppCsp(declared).csp).not.toHaveProperty('wasmUnsafeEval');
    }
  });

  it('nothing declared: no network at all, inline script and style only', () => {
    const { header, csp, dropped } = buildAppCsp(undefined);
    const d = directives(header);
    expect(d.get('default-src')).toBe("'none'");
    expect(d.get('connect-src')).toBe("'none'");
    expect(d.get('frame-src')).toBe("'none'");
    expect(d.get('base-uri')).toBe("'none'");
    expect(d.get('script-src')).toBe("'unsafe-inline'");
    expect(d.get('img-src')).toBe('data: blob:');
    expect(d.get('object-src')).toBe("'none'");
    expect(header).not.toMatch(/\*|unsafe-eval|'self'/);
    expect(csp).toEqual({});
    expect(dropped).toEqual([]);
  });

  it('declared origins go to their directives, normalized and without duplicates', () => {
    const { header, csp } = buildAppCsp({
      connectDomains: ['https://API.example.com/', 'wss://live.example.com', 'http://localhost:3000', 'https://api.example.com'],
      resourceDomains: ['https://*.cdn.example.com'],
      frameDomains: ['https://www.youtube.com'],
      baseUriDomains: ['https://base.example.com'],
    });
    const d = directives(header);
    expect(d.get('connect-src')).toBe('https://api.example.com wss://live.example.com http://localhost:3000');
    expect(d.get('script-src')).toBe("'unsafe-inline' https://*.cdn.example.com");
    expect(d.get('style-src')).toBe("'unsafe-inline' https://*.cdn.example.com");
    expect(d.get('font-src')).toBe('data: https://*.cdn.example.com');
    expect(d.get('img-src')).toBe('data: blob: https://*.cdn.example.com');
    expect(d.get('frame-src')).toBe('https://www.youtube.com');
    expect(d.get('base-uri')).toBe('https://base.example.com');
    expect(csp.connectDomains).toEqual(['https://api.example.com', 'wss://live.example.com', 'http://localhost:3000']);
  });

  it('drops what would loosen the policy, saying why, and never widens to *', () => {
    const hostile = [
      '*',
      'https://*',
      'https:',
      "'unsafe-eval'",
      'https://a.example.com; script-src *',
      'http://evil.example.com',
      'ws://evil.example.com',
      'data:',
      'javascript://x',
      'https://*.com',
      'https://a.*.example.com',
      'https://example.com/path',
      'https://example.com:*',
      'https://*.127.0.0.1',
      'https://example.com https://other.example',
    ];
    const { header, csp, dropped } = buildAppCsp({ connectDomains: ['https://ok.example.com'], resourceDomains: hostile });
    expect(csp.resourceDomains).toEqual([]);
    expect(dropped.map((d) => d.value)).toEqual(hostile);
    for (const d of dropped) expect(d.reason.length).toBeGreaterThan(10);
    expect(directives(header).get('script-src')).toBe("'unsafe-inline'");
    expect(header).not.toContain('evil');
    expect(header.split('; ').filter((d) => d.startsWith('script-src'))).toHaveLength(1);
  });

  it('wss and ws are for connections only; http only on loopback', () => {
    expect(checkOrigin('wss://x.example.com', 'resourceDomains')).toHaveProperty('reason');
    expect(checkOrigin('wss://x.example.com', 'connectDomains')).toEqual({ origin: 'wss://x.example.com' });
    expect(checkOrigin('ws://127.0.0.1:9000', 'connectDomains')).toEqual({ origin: 'ws://127.0.0.1:9000' });
    expect(checkOrigin('http://[::1]:8080', 'resourceDomains')).toEqual({ origin: 'http://[::1]:8080' });
    expect(checkOrigin('http://192.168.1.2', 'connectDomains')).toHaveProperty('reason');
    expect(checkOrigin('https://999.1.1.1', 'connectDomains')).toHaveProperty('reason');
  });

  it('bounds the number of origins per directive', () => {
    const many = Array.from({ length: 40 }, (_, i) => `https://h${i}.example.com`);
    const { csp, dropped } = buildAppCsp({ connectDomains: many });
    expect(csp.connectDomains).toHaveLength(32);
    expect(dropped).toHaveLength(8);
  });
});
