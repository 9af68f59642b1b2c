import { describe, expect, it } from 'vitest';
import { toolInfo } from './tools';

describe('toolInfo: the catalogue entry of a listed tool', () => {
  it('keeps title, annotations, icons, outputSchema and execution.taskSupport; leaves out what is absent', () => {
    const listed = {
      name: 'draw',
      title: 'Draw',
      description: 'Draws',
      inputSchema: { type: 'object', properties: {} },
      outputSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
      annotations: { readOnlyHint: true, title: 'Draw (annotated)' },
      icons: [{ src: 'https://example.com/draw.png', mimeType: 'image/png', sizes: ['48x48', '96x96'] }, { src: 'data:image/svg+xml;base64,PHN2Zy8+' }],
      execution: { taskSupport: 'optional' as const },
    };
    expect(toolInfo(listed)).toEqual(listed);
    expect(toolInfo(listed).icons?.[0]?.sizes).not.toBe(listed.icons[0]?.sizes); // a copy, not the SDK's array
    expect(toolInfo({ name: 'bare', inputSchema: { type: 'object' }, icons: [], execution: {} })).toEqual({ name: 'bare', inputSchema: { type: 'object' } });
  });
});
