import type { ContentBlock } from '../../src-shared/host-api';
import { visibleControls } from '../../src-shared/hidden-text';

export { visibleControls };

/**
 * A reader that went away (`switchboard resources | head -5`) makes the next write fail with EPIPE. That must not
 * crash the CLI mid-command (an unhandled 'error' would skip teardown and the exit code): the stream is marked gone,
 * later writes to it are dropped, and the command finishes and exits with its own code.
 */
const gone = new Set<NodeJS.WriteStream>();
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', () => {
    gone.add(stream);
  });
}

/** Whether the stream's reader has gone (a write failed). */
export function streamGone(stream: NodeJS.WriteStream): boolean {
  return gone.has(stream) || stream.destroyed;
}

function writeLine(stream: NodeJS.WriteStream, text: string): void {
  if (!streamGone(stream)) stream.write(`${text}\n`);
}

/*
 * Servers' text (descriptions, results, errors, stderr, log data, what they ask) reaches every line the CLI prints, and
 * a terminal obeys what is in it: `ESC[8m` conceals the rest of a line, OSC 52 writes the clipboard, a cursor move
 * overwrites a line the CLI printed. So every line goes out with its control characters spelled out (visibleControls:
 * `⟨ESC[8m conceal⟩`, `⟨BEL⟩`), whatever its source; `--json` output goes through outJson instead, data intact.
 */

/** The CLI's stdout (results) and stderr (everything else), one line at a time, control characters made visible. */
export const out = (text: string): void => writeLine(process.stdout, visibleControls(text));
export const err = (text: string): void => writeLine(process.stderr, visibleControls(text));

/**
 * JSON that is safe on a terminal and the same data: JSON.stringify escapes C0 controls (ESC is `\u001b`) but leaves
 * DEL and C1 controls (U+0080–U+009F, which some terminals obey) raw; those are escaped here too.
 */
export function jsonText(value: unknown, indent: number | undefined = 2): string {
  return JSON.stringify(value, null, indent).replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** `--json` output: one JSON document on stdout (see jsonText). */
export const outJson = (value: unknown, indent?: number): void => writeLine(process.stdout, jsonText(value, indent));

export function firstLine(text: string | undefined): string {
  return (text ?? '').split('\n')[0] ?? '';
}

/** Whether a code point takes two columns on a terminal (CJK ideographs, kana, Hangul, full-width forms). */
function wide(code: number): boolean {
  return (
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0x303e) ||
    (code >= 0x3041 && code <= 0x33ff) ||
    (code >= 0x3400 && code <= 0x4dbf) ||
    (code >= 0x4e00 && code <= 0x9fff) ||
    (code >= 0xa000 && code <= 0xa4cf) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x20000 && code <= 0x3fffd)
  );
}

/** The columns a text takes on a terminal: its length, but Chinese characters and full-width marks count twice. */
export function displayWidth(text: string): number {
  let width = 0;
  for (const char of text) width += wide(char.codePointAt(0) ?? 0) ? 2 : 1;
  return width;
}

/** `text` padded with spaces to `width` terminal columns. */
export function padDisplay(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - displayWidth(text)));
}

/** Columns padded to the widest cell (in terminal columns); the last column is not padded. */
export function printTable(rows: string[][], header: string[]): void {
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((r) => displayWidth(r[i] ?? ''))));
  for (const row of all)
    out(
      row
        .map((cell, i) => (i === row.length - 1 ? cell : padDisplay(cell, widths[i] ?? 0)))
        .join('  ')
        .trimEnd(),
    );
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
