import { describe, expect, it } from 'vitest';
import type { ToolInfo } from '../../../../src-shared/host-api';
import { definitionOf, toolInfo } from './tools';

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

describe('definitionOf: what the SDK callTool is given for a listed tool', () => {
  it('keeps an input schema that declares x-mcp-header (anywhere) for the header mirroring; gives a bare one otherwise; no outputSchema; one per ToolInfo', () => {
    const declaring = {
      type: 'object',
      properties: {
        region: { type: 'string', 'x-mcp-header': 'Region' },
        nested: { type: 'object', properties: { id: { type: 'integer', 'x-mcp-header': 'Id' } } },
      },
    };
    const underItems = { type: 'object', properties: { list: { type: 'array', items: { type: 'string', 'x-mcp-header': 'Misplaced' } } } };
    const plain = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] };
    const output = { type: 'object', properties: { ok: { type: 'boolean' } } };
    const tool = (inputSchema: Record<string, unknown>): ToolInfo => ({ name: 't', inputSchema, outputSchema: output });
    const withHeaders = tool(declaring);
    expect(definitionOf(withHeaders).inputSchema).toBe(declaring);
    // A misplaced declaration is kept too: the SDK reports it (and sends no headers), as it would have.
    expect(definitionOf(tool(underItems)).inputSchema).toBe(underItems);
    const plainTool = tool(plain);
    expect(definitionOf(plainTool)).toEqual({ name: 't', inputSchema: { type: 'object' } });
    expect(definitionOf(plainTool)).toBe(definitionOf(plainTool));
    expect(definitionOf(withHeaders)).not.toHaveProperty('outputSchema');
  });
});
