import type { HiddenTextFinding, HiddenTextKind, ToolInfo } from '../../../src-shared/host-api';

/*
 * Tool poisoning hides instructions for the model where a person does not see them: zero-width characters, bidi
 * controls that reorder what is shown, Unicode tag characters (U+E0000–U+E007F mirror ASCII, invisibly), and
 * descriptions too long for anyone to read. This finds them in a tool's title, description and schemas (property
 * names, and every string in them: descriptions, titles, enum values, defaults) and spells them out.
 */

/** A description (or any schema string) longer than this is flagged: nobody reviews a wall of text. */
export const longTextLimit = 2000;

const names: Record<number, string> = {
  0x200b: 'ZWSP',
  0x200c: 'ZWNJ',
  0x200d: 'ZWJ',
  0x200e: 'LRM',
  0x200f: 'RLM',
  0x2060: 'WJ',
  0x2061: 'FUNCTION APPLICATION',
  0x2062: 'INVISIBLE TIMES',
  0x2063: 'INVISIBLE SEPARATOR',
  0x2064: 'INVISIBLE PLUS',
  0xfeff: 'BOM',
  0x061c: 'ALM',
  0x202a: 'LRE',
  0x202b: 'RLE',
  0x202c: 'PDF',
  0x202d: 'LRO',
  0x202e: 'RLO',
  0x2066: 'LRI',
  0x2067: 'RLI',
  0x2068: 'FSI',
  0x2069: 'PDI',
};

/** The kind of an invisible or deceptive code point, or undefined for an ordinary one. */
export function hiddenKind(cp: number): Exclude<HiddenTextKind, 'long'> | undefined {
  if ((cp >= 0x200b && cp <= 0x200f) || (cp >= 0x2060 && cp <= 0x2064) || cp === 0xfeff) return 'zero-width';
  if (cp === 0x061c || (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069)) return 'bidi';
  if (cp >= 0xe0000 && cp <= 0xe007f) return 'tag';
  if (cp >= 0xe0100 && cp <= 0xe01ef) return 'variation-selector';
  return undefined;
}

const hex = (cp: number): string => `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;

/** What a tag code point stands for: its ASCII twin, or a marker for the language tag and cancel tag. */
function tagChar(cp: number): string {
  const ascii = cp - 0xe0000;
  if (ascii >= 0x20 && ascii <= 0x7e) return String.fromCharCode(ascii);
  if (cp === 0xe0001) return '⟨begin⟩';
  if (cp === 0xe007f) return '⟨end⟩';
  return `⟨${hex(cp)}⟩`;
}

export interface ScanResult {
  kinds: HiddenTextKind[];
  decoded: string;
  tagText?: string;
  count: number;
}

/** Finds hidden characters in one text (and whether it is too long); undefined when it is clean. */
export function scanText(text: string, options: { long?: boolean } = {}): ScanResult | undefined {
  const kinds = new Set<HiddenTextKind>();
  let decoded = '';
  let tags = '';
  let tagRun = '';
  let count = 0;
  const flushTags = (): void => {
    if (tagRun === '') return;
    decoded += `⟨tags: ${tagRun}⟩`;
    tagRun = '';
  };
  for (const char of text) {
    const cp = char.codePointAt(0) ?? 0;
    const kind = hiddenKind(cp);
    if (kind === 'tag') {
      kinds.add(kind);
      count++;
      const spelled = tagChar(cp);
      tagRun += spelled;
      if (spelled.length === 1) tags += spelled;
      continue;
    }
    flushTags();
    if (kind === undefined) {
      decoded += char;
      continue;
    }
    kinds.add(kind);
    count++;
    const name = names[cp];
    decoded += `⟨${hex(cp)}${name !== undefined ? ` ${name}` : ''}⟩`;
  }
  flushTags();
  const long = options.long !== false && text.length > longTextLimit;
  if (long) kinds.add('long');
  if (kinds.size === 0) return undefined;
  return { kinds: [...kinds], decoded, ...(tags !== '' ? { tagText: tags } : {}), count: count > 0 ? count : text.length };
}

/** Every finding in a tool's title, description, schemas (names and strings) and annotation title. */
export function scanTool(tool: Pick<ToolInfo, 'name' | 'title' | 'description' | 'inputSchema' | 'outputSchema' | 'annotations'>): HiddenTextFinding[] {
  const findings: HiddenTextFinding[] = [];
  const check = (where: string, text: string): void => {
    const found = scanText(text);
    if (found) findings.push({ where, ...found });
  };
  check('name', tool.name);
  if (tool.title !== undefined) check('title', tool.title);
  if (tool.description !== undefined) check('description', tool.description);
  walk(tool.inputSchema, 'inputSchema', check, 0);
  if (tool.outputSchema !== undefined) walk(tool.outputSchema, 'outputSchema', check, 0);
  const annotationTitle = tool.annotations?.title;
  if (typeof annotationTitle === 'string') check('annotations.title', annotationTitle);
  return findings;
}

const maxDepth = 64;

/** Every string in a schema (descriptions, titles, enum values, defaults, …) and every key (property names). */
function walk(value: unknown, path: string, check: (where: string, text: string) => void, depth: number): void {
  if (depth > maxDepth) return;
  if (typeof value === 'string') {
    check(path, value);
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, index) => walk(item, `${path}[${index}]`, check, depth + 1));
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  for (const [key, child] of Object.entries(value)) {
    const at = `${path}.${pathKey(key)}`;
    check(`${at} (name)`, key);
    walk(child, at, check, depth + 1);
  }
}

/** A key as it is written in a path: plain when it is an identifier, else quoted with its hidden characters spelled out. */
function pathKey(key: string): string {
  if (/^[A-Za-z_$][\w$-]*$/.test(key)) return key;
  return JSON.stringify(scanText(key, { long: false })?.decoded ?? key);
}

/** One line per finding, for the CLI: `description: zero-width, tag — "Adds⟨tags: ignore…⟩"`. */
export function findingLines(findings: readonly HiddenTextFinding[], maxChars = 200): string[] {
  return findings.map((f) => {
    const shown = f.decoded.length > maxChars ? `${f.decoded.slice(0, maxChars)}…` : f.decoded;
    return `${f.where}: ${f.kinds.join(', ')}${f.tagText !== undefined ? ` (tags spell "${f.tagText}")` : ''} — ${JSON.stringify(shown)}`;
  });
}
