import type { HiddenTextFinding, HiddenTextKind, ToolInfo } from '../../../src-shared/host-api';
import { revealHidden, scanText } from '../../../src-shared/hidden-text';

export { hiddenKind, longTextLimit, revealHidden, scanText, visibleControls, type ScanResult } from '../../../src-shared/hidden-text';

/*
 * Tool poisoning hides instructions for the model where a person does not see them: zero-width characters, bidi
 * controls that reorder what is shown, Unicode tag characters, variation selectors, escape sequences that conceal text
 * on a terminal, and other invisible characters. A long text is not among them: it hides nothing. This
 * finds them in a tool's title, description and schemas (property names, and every string in them: descriptions,
 * titles, enum values, defaults) and spells them out (the characters themselves: src-shared/hidden-text.ts).
 */

/** Every finding in a tool's title, description, schemas (names and strings) and annotation title. */
export function scanTool(
  tool: Pick<ToolInfo, 'name' | 'title' | 'description' | 'inputSchema' | 'outputSchema' | 'annotations' | '_meta'>,
): HiddenTextFinding[] {
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
  // MCP Apps: the UI resource URI and visibility are pinned, so their text is checked like the rest.
  if (tool._meta?.ui !== undefined) walk(tool._meta.ui, '_meta.ui', check, 0);
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
  return JSON.stringify(scanText(key)?.decoded ?? key);
}

/**
 * How findingLines puts a finding into words (the CLI passes its language's): the kinds are codes, `where` (a field's
 * path) and the text (the server's own, decoded and quoted) are shown as they are.
 */
export interface FindingWords {
  kind(kind: HiddenTextKind): string;
  /** Between two kinds. */
  separator: string;
  /** What the tag characters spell, after the kinds. */
  tags(text: string): string;
  /** What the variation selectors spell, after the kinds. */
  selectors(text: string): string;
  line(parts: { where: string; kinds: string; tags: string; text: string }): string;
}

export const englishFindingWords: FindingWords = {
  kind: (kind) => kind,
  separator: ', ',
  tags: (text) => ` (tags spell "${text}")`,
  selectors: (text) => ` (variation selectors spell "${text}")`,
  line: ({ where, kinds, tags, text }) => `${where}: ${kinds}${tags} — ${text}`,
};

/** One line per finding, for the CLI: `description: zero-width, tag — "Adds⟨tags: ignore…⟩"`. */
export function findingLines(findings: readonly HiddenTextFinding[], maxChars = 200, words: FindingWords = englishFindingWords): string[] {
  return findings.map((f) => {
    const shown = f.decoded.length > maxChars ? `${f.decoded.slice(0, maxChars)}…` : f.decoded;
    const spelled = `${f.tagText !== undefined ? words.tags(f.tagText) : ''}${f.selectorText !== undefined ? words.selectors(revealHidden(f.selectorText).replace(/\r?\n/g, '\\n')) : ''}`;
    return words.line({ where: f.where, kinds: f.kinds.map((k) => words.kind(k)).join(words.separator), tags: spelled, text: JSON.stringify(shown) });
  });
}
