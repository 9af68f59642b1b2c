import type { ContentBlock } from '../../src-shared/host-api';

/** The CLI's stdout (results) and stderr (everything else), one line at a time. */
export const out = (text: string): void => void process.stdout.write(`${text}\n`);
export const err = (text: string): void => void process.stderr.write(`${text}\n`);

export function firstLine(text: string | undefined): string {
  return (text ?? '').split('\n')[0] ?? '';
}

/** Columns padded to the widest cell; the last column is not padded. */
export function printTable(rows: string[][], header: string[]): void {
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((r) => (r[i] ?? '').length)));
  for (const row of all) out(row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join('  ').trimEnd());
}

/** The decoded size of base64 text. */
export function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

/** One content block as a person reads it in a terminal: text as is, binary as `[image image/png, 68 bytes]`. */
export function renderBlock(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
    case 'audio':
      return `[${block.type} ${block.mimeType}, ${base64Bytes(block.data)} bytes]`;
    case 'resource':
      if (block.resource.text !== undefined) return block.resource.text;
      return `[resource ${block.resource.uri}${block.resource.blob !== undefined ? `, blob ${block.resource.mimeType ?? 'application/octet-stream'}, ${base64Bytes(block.resource.blob)} bytes` : ''}]`;
    case 'resource_link':
      return `[link ${block.name}: ${block.uri}]`;
    default:
      return JSON.stringify(block);
  }
}

/** A JSON-RPC `data` value on one line: strings as they are, anything else as JSON. */
export function dataText(data: unknown): string {
  if (typeof data === 'string') return data;
  try {
    return JSON.stringify(data) ?? String(data);
  } catch {
    return String(data);
  }
}
