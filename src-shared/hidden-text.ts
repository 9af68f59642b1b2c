import type { HiddenTextKind } from './contract/servers';

/*
 * Spelling out invisible and deceptive characters (issue 12 §2): zero-width characters, bidi controls, Unicode tag
 * characters (U+E0000–U+E007F mirror ASCII, invisibly), supplementary variation selectors, and texts too long to
 * read. Pure: main scans tool definitions with it (src-main/core/trust/hidden-text.ts), the renderer shows texts
 * through it (a diff of a definition never shows an invisible character as nothing).
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

const pictographic = /\p{Extended_Pictographic}/u;
/** Before a ZWJ: a pictograph, maybe with its VS16 or skin tone; after it: a pictograph. */
function emojiJoin(before: string | undefined, after: string | undefined): boolean {
  if (before === undefined || after === undefined) return false;
  const b = before.codePointAt(0) ?? 0;
  const prior = pictographic.test(before) || b === 0xfe0f || (b >= 0x1f3fb && b <= 0x1f3ff);
  return prior && pictographic.test(after);
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
  const chars = [...text];
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i] ?? '';
    const cp = char.codePointAt(0) ?? 0;
    // A zero-width joiner inside an emoji sequence (👩‍💻) is how the emoji is written, not hidden text.
    const kind = cp === 0x200d && emojiJoin(chars[i - 1], chars[i + 1]) ? undefined : hiddenKind(cp);
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

/** The text with its hidden characters spelled out (itself when it has none). */
export function revealHidden(text: string): string {
  return scanText(text, { long: false })?.decoded ?? text;
}
