import type { HiddenTextKind } from './contract/trust';

/*
 * Spelling out invisible and deceptive characters: zero-width characters, bidi controls, Unicode tag characters
 * (U+E0000–U+E007F mirror ASCII, invisibly), variation selectors (one byte each in the "emoji smuggling" scheme),
 * control characters and terminal escape sequences (`ESC[8m` conceals the rest of a line on a terminal while a model
 * reads it), and other invisible characters. Pure: main scans tool definitions with it
 * (src-main/core/trust/hidden-text.ts), the renderer shows texts through it, and the CLI prints every server-provided
 * text through visibleControls.
 */

/**
 * Past this length a description is worth a note of its length where it is shown. Length is information, not hidden
 * text: many well-known tools document themselves at length.
 */
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
  0x00ad: 'SHY',
  0x115f: 'HANGUL CHOSEONG FILLER',
  0x1160: 'HANGUL JUNGSEONG FILLER',
  0x3164: 'HANGUL FILLER',
  0xffa0: 'HALFWIDTH HANGUL FILLER',
  0x206a: 'ISS',
  0x206b: 'ASS',
  0x206c: 'IAFS',
  0x206d: 'AAFS',
  0x206e: 'NADS',
  0x206f: 'NODS',
  0x1d173: 'BEGIN BEAM',
  0x1d174: 'END BEAM',
  0x1d175: 'BEGIN TIE',
  0x1d176: 'END TIE',
  0x1d177: 'BEGIN SLUR',
  0x1d178: 'END SLUR',
  0x1d179: 'BEGIN PHRASE',
  0x1d17a: 'END PHRASE',
};

/** The abbreviations of C0 (U+0000–U+001F) and C1 (U+0080–U+009F) controls, by code point. */
const c0Names = [
  'NUL',
  'SOH',
  'STX',
  'ETX',
  'EOT',
  'ENQ',
  'ACK',
  'BEL',
  'BS',
  'HT',
  'LF',
  'VT',
  'FF',
  'CR',
  'SO',
  'SI',
  'DLE',
  'DC1',
  'DC2',
  'DC3',
  'DC4',
  'NAK',
  'SYN',
  'ETB',
  'CAN',
  'EM',
  'SUB',
  'ESC',
  'FS',
  'GS',
  'RS',
  'US',
];
const c1Names = [
  'PAD',
  'HOP',
  'BPH',
  'NBH',
  'IND',
  'NEL',
  'SSA',
  'ESA',
  'HTS',
  'HTJ',
  'VTS',
  'PLD',
  'PLU',
  'RI',
  'SS2',
  'SS3',
  'DCS',
  'PU1',
  'PU2',
  'STS',
  'CCH',
  'MW',
  'SPA',
  'EPA',
  'SOS',
  'SGCI',
  'SCI',
  'CSI',
  'ST',
  'OSC',
  'PM',
  'APC',
];

function controlName(cp: number): string {
  if (cp < 0x20) return c0Names[cp] ?? 'C0';
  if (cp === 0x7f) return 'DEL';
  return c1Names[cp - 0x80] ?? 'C1';
}

/** A control character a terminal acts on: C0 but tab and line feed (carriage return is judged by what follows), DEL, C1. */
const isControl = (cp: number): boolean => (cp < 0x20 && cp !== 0x09 && cp !== 0x0a) || (cp >= 0x7f && cp <= 0x9f);
const isSelector = (cp: number): boolean => (cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xe0100 && cp <= 0xe01ef);

/** The kind of an invisible or deceptive code point, or undefined for an ordinary one (context aside: see scanText). */
export function hiddenKind(cp: number): HiddenTextKind | undefined {
  if ((cp >= 0x200b && cp <= 0x200f) || (cp >= 0x2060 && cp <= 0x2064) || cp === 0xfeff) return 'zero-width';
  if (cp === 0x061c || (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069)) return 'bidi';
  if (cp >= 0xe0000 && cp <= 0xe007f) return 'tag';
  if (isSelector(cp)) return 'variation-selector';
  if (isControl(cp)) return 'control';
  if (cp === 0x00ad || cp === 0x115f || cp === 0x1160 || cp === 0x3164 || cp === 0xffa0 || (cp >= 0x206a && cp <= 0x206f) || (cp >= 0x1d173 && cp <= 0x1d17a))
    return 'invisible';
  return undefined;
}

const hex = (cp: number): string => `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
const code = (char: string | undefined): number => char?.codePointAt(0) ?? -1;

/** What a tag code point stands for: its ASCII twin, or a marker for the language tag and cancel tag. */
function tagChar(cp: number): string {
  const ascii = cp - 0xe0000;
  if (ascii >= 0x20 && ascii <= 0x7e) return String.fromCharCode(ascii);
  if (cp === 0xe0001) return '⟨begin⟩';
  if (cp === 0xe007f) return '⟨end⟩';
  return `⟨${hex(cp)}⟩`;
}

/** C1 controls that open a string ended by ST (OSC also by BEL), and their ESC forms (`ESC]`, `ESC P`, …). */
const stringOpeners = new Set([0x90, 0x98, 0x9d, 0x9e, 0x9f]);
const escStringOpeners = new Set([0x50, 0x58, 0x5d, 0x5e, 0x5f]);

/** A word for what a sequence does where it is one a person would be fooled by. */
function sequenceNote(intro: string, body: string): string {
  if (intro.endsWith('[') || intro === 'CSI ') {
    if (body.endsWith('m') && body.slice(0, -1).split(';').includes('8')) return ' conceal';
    return '';
  }
  if (intro.endsWith(']') || intro === 'OSC ') {
    if (body.startsWith('52;')) return ' clipboard';
    if (body.startsWith('8;')) return ' link';
  }
  return '';
}

/**
 * The terminal escape sequence that starts at `chars[i]` (ESC or a C1 introducer), spelled as one unit —
 * `⟨ESC[8m conceal⟩`, `⟨ESC]52;c;aGk= BEL clipboard⟩` — with its printable body passed through `body`; undefined
 * for a control that starts none (a lone ESC). A string (OSC, DCS, …) runs to its terminator, or, unterminated, to
 * the next control character: a terminal would swallow all of that.
 */
function escapeSequence(chars: readonly string[], i: number, body: (text: string) => string): { end: number; spelled: string } | undefined {
  const cp = code(chars[i]);
  const next = code(chars[i + 1]);
  let intro: string;
  let j: number;
  let kind: 'csi' | 'string' | 'esc';
  if (cp === 0x1b && next === 0x5b) [intro, j, kind] = ['ESC[', i + 2, 'csi'];
  else if (cp === 0x1b && escStringOpeners.has(next)) [intro, j, kind] = [`ESC${chars[i + 1] ?? ''}`, i + 2, 'string'];
  else if (cp === 0x1b && next >= 0x20 && next <= 0x7e) [intro, j, kind] = ['ESC', i + 1, 'esc'];
  else if (cp === 0x9b) [intro, j, kind] = ['CSI ', i + 1, 'csi'];
  else if (stringOpeners.has(cp)) [intro, j, kind] = [`${controlName(cp)} `, i + 1, 'string'];
  else return undefined;
  const start = j;
  if (kind === 'string') {
    while (j < chars.length && !isControl(code(chars[j])) && code(chars[j]) !== 0x0a && code(chars[j]) !== 0x09) j++;
    const content = chars.slice(start, j).join('');
    const c = code(chars[j]);
    const terminator = c === 0x07 || c === 0x9c ? ` ${controlName(c)}` : c === 0x1b && code(chars[j + 1]) === 0x5c ? ' ESC\\' : '';
    j += terminator === ' ESC\\' ? 2 : terminator === '' ? 0 : 1;
    return { end: j, spelled: `⟨${intro}${body(content)}${terminator}${sequenceNote(intro, content)}⟩` };
  }
  // CSI: parameter bytes, intermediate bytes, one final byte; a two-character escape: intermediates, one final byte.
  if (kind === 'csi') while (j < chars.length && code(chars[j]) >= 0x30 && code(chars[j]) <= 0x3f) j++;
  while (j < chars.length && code(chars[j]) >= 0x20 && code(chars[j]) <= 0x2f) j++;
  const final = code(chars[j]);
  if (final >= (kind === 'csi' ? 0x40 : 0x30) && final <= 0x7e) j++;
  const content = chars.slice(start, j).join('');
  return { end: j, spelled: `⟨${intro}${content}${sequenceNote(intro, content)}⟩` };
}

/** A control character at `chars[i]` that hides or rewrites what a terminal shows (a carriage return before a line feed does not). */
const isHiddenControl = (chars: readonly string[], i: number, cp: number): boolean => isControl(cp) && !(cp === 0x0d && code(chars[i + 1]) === 0x0a);

/**
 * Text safe to print on a terminal: control characters spelled out (`⟨BEL⟩`, `⟨DEL⟩`, `⟨NEL⟩`) and escape sequences as
 * one unit (`⟨ESC[8m conceal⟩`, `⟨ESC]52;c;… BEL clipboard⟩`); tabs, line feeds and CRLF kept; everything else as it is.
 */
export function visibleControls(text: string): string {
  let any = false;
  for (let i = 0; i < text.length && !any; i++) any = isControl(text.charCodeAt(i));
  if (!any) return text;
  const chars = [...text];
  let shown = '';
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i] ?? '';
    const cp = code(char);
    if (!isHiddenControl(chars, i, cp)) {
      shown += char;
      continue;
    }
    const sequence = escapeSequence(chars, i, (body) => body);
    if (sequence) {
      shown += sequence.spelled;
      i = sequence.end - 1;
    } else shown += `⟨${controlName(cp)}⟩`;
  }
  return shown;
}

export interface ScanResult {
  kinds: HiddenTextKind[];
  decoded: string;
  tagText?: string;
  selectorText?: string;
  count: number;
}

const pictographic = /\p{Extended_Pictographic}/u;
/** Before a ZWJ: a pictograph, maybe with its VS16 or skin tone; after it: a pictograph. */
function emojiJoin(before: string | undefined, after: string | undefined): boolean {
  if (before === undefined || after === undefined) return false;
  const b = code(before);
  const prior = pictographic.test(before) || b === 0xfe0f || (b >= 0x1f3fb && b <= 0x1f3ff);
  return prior && pictographic.test(after);
}

const emoji = /\p{Emoji}/u;
const variantBase = /[\p{Lo}\p{S}]/u;
/**
 * Whether one variation selector after `before` is how the text is written: VS15/VS16 (U+FE0E/U+FE0F) choose text or
 * emoji presentation of an emoji (❤️, 1️⃣); VS1–VS14 pick a glyph of an ideograph or a symbol. Any other — a run of
 * them, one after a plain letter, the supplementary ones — can carry a hidden byte each.
 */
function takesSelector(before: string | undefined, cp: number): boolean {
  if (before === undefined || isSelector(code(before))) return false;
  if (cp === 0xfe0e || cp === 0xfe0f) return emoji.test(before);
  if (cp >= 0xfe00 && cp <= 0xfe0d) return variantBase.test(before);
  return false;
}

/** The byte a variation selector stands for in the emoji-smuggling scheme: VS1–VS16 are 0–15, VS17–VS256 are 16–255. */
const selectorByte = (cp: number): number => (cp <= 0xfe0f ? cp - 0xfe00 : cp - 0xe0100 + 16);

/** Bytes as UTF-8 text, or undefined when they are not valid UTF-8 or spell nothing a person could read. */
function utf8Text(bytes: readonly number[]): string | undefined {
  try {
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(Uint8Array.from(bytes));
    return /[^\p{Cc}\s]/u.test(text) ? text : undefined;
  } catch {
    return undefined;
  }
}

/** Finds hidden characters in one text; undefined when it is clean. */
export function scanText(text: string): ScanResult | undefined {
  const kinds = new Set<HiddenTextKind>();
  let decoded = '';
  let tags = '';
  let selectors = '';
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
    const cp = code(char);
    // A zero-width joiner inside an emoji sequence (👩‍💻) is how the emoji is written, not hidden text.
    let kind = cp === 0x200d && emojiJoin(chars[i - 1], chars[i + 1]) ? undefined : hiddenKind(cp);
    if (kind === 'control' && !isHiddenControl(chars, i, cp)) kind = undefined;
    if (kind === 'tag') {
      kinds.add(kind);
      count++;
      const spelled = tagChar(cp);
      tagRun += spelled;
      if (spelled.length === 1) tags += spelled;
      continue;
    }
    flushTags();
    if (kind === 'variation-selector') {
      let end = i;
      while (end < chars.length && isSelector(code(chars[end]))) end++;
      const run = chars.slice(i, end);
      if (run.length === 1 && takesSelector(chars[i - 1], cp)) {
        decoded += char;
        continue;
      }
      kinds.add(kind);
      count += run.length;
      const spelled = utf8Text(run.map((c) => selectorByte(code(c))));
      if (spelled !== undefined) {
        selectors += spelled;
        decoded += `⟨variation selectors: ${revealHidden(spelled)}⟩`;
      } else decoded += run.map((c) => `⟨${hex(code(c))} VS${selectorByte(code(c)) + 1}⟩`).join('');
      i = end - 1;
      continue;
    }
    if (kind === undefined) {
      decoded += char;
      continue;
    }
    kinds.add(kind);
    count++;
    if (kind === 'control') {
      const sequence = escapeSequence(chars, i, revealHidden);
      if (sequence) {
        decoded += sequence.spelled;
        i = sequence.end - 1;
      } else decoded += `⟨${controlName(cp)}⟩`;
      continue;
    }
    const name = names[cp];
    decoded += `⟨${hex(cp)}${name !== undefined ? ` ${name}` : ''}⟩`;
  }
  flushTags();
  if (kinds.size === 0) return undefined;
  return { kinds: [...kinds], decoded, ...(tags !== '' ? { tagText: tags } : {}), ...(selectors !== '' ? { selectorText: selectors } : {}), count };
}

/** The text with its hidden characters spelled out (itself when it has none). */
export function revealHidden(text: string): string {
  return scanText(text)?.decoded ?? text;
}
