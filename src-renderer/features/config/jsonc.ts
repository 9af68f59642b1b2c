import { parse, parseTree, findNodeAtLocation, printParseErrorCode, type ParseError } from 'jsonc-parser';
import type { Catalogue } from '../../../src-shared/i18n';
import { i18n } from '../../i18n';

/*
 * The renderer's light reading of the servers config text: enough to fill the forms, find `inputs`, and lint
 * as you type. The authoritative parse and validation are main's (on save and on every change of the file).
 */

const parseOptions = { allowTrailingComma: true, disallowComments: false } as const;

/** A problem at a place in the text (1-based line and column, like main's `FILE:LINE:COL`). */
export interface TextProblem {
  line: number;
  column: number;
  /** Offsets for underlining (end exclusive). */
  from: number;
  to: number;
  message: string;
  /** `local`: found here while typing; `main`: main's validation (on save, or of the file on disk). */
  source: 'local' | 'main';
}

export interface InputDecl {
  id: string;
  description?: string;
  password: boolean;
}

export interface ParsedConfig {
  /** `mcpServers` entries as written (unknown keys kept), or undefined when the text does not parse. */
  servers: Record<string, Record<string, unknown>> | undefined;
  inputs: InputDecl[];
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Reads `mcpServers` and `inputs` from the text; undefined servers when it has syntax errors. */
export function readConfig(text: string): ParsedConfig {
  const errors: ParseError[] = [];
  const data: unknown = parse(text, errors, parseOptions);
  if (errors.length > 0 || !isRecord(data)) return { servers: undefined, inputs: [] };
  const servers: Record<string, Record<string, unknown>> = {};
  if (isRecord(data.mcpServers)) {
    for (const [name, entry] of Object.entries(data.mcpServers)) if (isRecord(entry)) servers[name] = entry;
  }
  const inputs: InputDecl[] = [];
  if (Array.isArray(data.inputs)) {
    for (const raw of data.inputs as unknown[]) {
      if (!isRecord(raw) || typeof raw.id !== 'string') continue;
      inputs.push({
        id: raw.id,
        ...(typeof raw.description === 'string' ? { description: raw.description } : {}),
        password: raw.password === true,
      });
    }
  }
  return { servers, inputs };
}

export function lineColumnAt(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** The offset of a 1-based line and column, clamped into the text. */
export function offsetAt(text: string, line: number, column: number): number {
  let offset = 0;
  for (let current = 1; current < line; current++) {
    const next = text.indexOf('\n', offset);
    if (next < 0) return text.length;
    offset = next + 1;
  }
  const lineEnd = text.indexOf('\n', offset);
  const max = lineEnd < 0 ? text.length : lineEnd;
  return Math.min(offset + Math.max(0, column - 1), max);
}

const parseCodes = new Set([
  'InvalidSymbol',
  'InvalidNumberFormat',
  'PropertyNameExpected',
  'ValueExpected',
  'ColonExpected',
  'CommaExpected',
  'CloseBraceExpected',
  'CloseBracketExpected',
  'EndOfFileExpected',
  'InvalidCommentToken',
  'UnexpectedEndOfComment',
  'UnexpectedEndOfString',
  'UnexpectedEndOfNumber',
  'InvalidUnicode',
  'InvalidEscapeCharacter',
  'InvalidCharacter',
]);
function parseErrorText(code: string): string {
  return parseCodes.has(code) ? i18n.t(`jsonc.parse.${code as keyof Catalogue['jsonc']['parse']}`) : code;
}

function problemAt(text: string, from: number, to: number, message: string): TextProblem {
  const { line, column } = lineColumnAt(text, from);
  return { line, column, from, to: Math.max(to, from), message, source: 'local' };
}

/**
 * Problems found while typing: JSON(C) syntax, then the shape main will insist on (an `mcpServers` object whose
 * entries each have `command` or `url`). Main's own validation, on save, has the final word.
 */
export function lintConfigText(text: string): TextProblem[] {
  if (text.trim() === '') return [problemAt(text, 0, 0, i18n.t('jsonc.empty'))];
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, parseOptions);
  if (errors.length > 0) {
    return errors.slice(0, 20).map((e) => {
      const code = printParseErrorCode(e.error);
      return problemAt(text, e.offset, e.offset + e.length, i18n.t('jsonc.notJson', { what: parseErrorText(code) }));
    });
  }
  if (root === undefined) return [problemAt(text, 0, 0, i18n.t('jsonc.empty'))];
  if (root.type !== 'object') return [problemAt(text, root.offset, root.offset + root.length, i18n.t('jsonc.expectedObject'))];
  const servers = findNodeAtLocation(root, ['mcpServers']);
  if (servers === undefined) return [problemAt(text, root.offset, root.offset + 1, i18n.t('jsonc.missingServers'))];
  const property = servers.parent;
  if (servers.type !== 'object') {
    const at = property ?? servers;
    return [problemAt(text, at.offset, at.offset + at.length, i18n.t('jsonc.serversObject'))];
  }
  const problems: TextProblem[] = [];
  for (const child of servers.children ?? []) {
    const [key, value] = child.children ?? [];
    if (key === undefined || value === undefined) continue;
    const name = String(key.value);
    const keyEnd = key.offset + key.length;
    if (value.type !== 'object') {
      problems.push(problemAt(text, key.offset, keyEnd, i18n.t('jsonc.entryObject', { name })));
      continue;
    }
    const has = (k: string): boolean => findNodeAtLocation(value, [k]) !== undefined;
    if (!has('command') && !has('url')) {
      problems.push(problemAt(text, key.offset, keyEnd, i18n.t('jsonc.needsOne', { name })));
    } else if (has('command') && has('url')) {
      problems.push(problemAt(text, key.offset, keyEnd, i18n.t('jsonc.both', { name })));
    }
  }
  return problems;
}

/**
 * Main's located message `FILE:LINE:COL: message` (from a refused save) as line, column and message; undefined
 * for a message without a location (such as "changed on disk").
 */
export function parseLocatedMessage(message: string, file?: string): { line: number; column: number; message: string } | undefined {
  const rest = file !== undefined && message.startsWith(`${file}:`) ? message.slice(file.length + 1) : undefined;
  const match = rest !== undefined ? /^(\d+):(\d+): ([\s\S]*)$/.exec(rest) : /^[\s\S]+?:(\d+):(\d+): ([\s\S]*)$/.exec(message);
  if (!match) return undefined;
  return { line: Number(match[1]), column: Number(match[2]), message: match[3] ?? '' };
}

/** A problem main reported (1-based line/column), placed in the text for underlining the rest of its line. */
export function mainProblem(text: string, line: number, column: number, message: string): TextProblem {
  const from = offsetAt(text, line, column);
  const lineEnd = text.indexOf('\n', from);
  const to = lineEnd < 0 ? text.length : lineEnd;
  return { line, column, from, to: Math.max(to, from), message, source: 'main' };
}
