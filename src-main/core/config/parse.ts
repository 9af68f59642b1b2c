import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { findNodeAtLocation, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import type { z } from 'zod';
import { serversConfigSchema, type ServersConfig } from '../../../src-shared/schemas/config';
import { en } from '../../../src-shared/i18n/en';
import { pathToFileURL } from 'node:url';
import { calculatorPath, schemaPath } from '../support/paths';
import type { ChildRuntime } from './runtime';

/**
 * What is wrong, without words: `reason` names the kind of problem and the other fields are its data (the field's
 * dotted path, what was expected and what is there, a minimum or maximum, the unknown keys…). The UI and CLI word it
 * in their language (`errors.config-invalid.<reason>`); `detail` is the same in English.
 */
export interface ConfigDetailInfo {
  reason: string;
  [key: string]: string | number;
}

/** The kinds of value `got` names (describeValue's). */
type ValueKind = 'nothing' | 'null' | 'array' | 'object' | 'string' | 'number' | 'boolean';

/** A config problem pinned to a place in the file, printed as `FILE:LINE:COL: message`. */
export class ConfigError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly column: number,
    readonly detail: string,
    /** The same problem as a reason code and data (see ConfigDetailInfo). */
    readonly info?: ConfigDetailInfo,
  ) {
    super(`${file}:${line}:${column}: ${detail}`);
    this.name = 'ConfigError';
  }
}

function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

function describeValue(node: Node | undefined): string {
  if (node === undefined) return 'nothing';
  if (node.type === 'null') return 'null';
  if (node.type === 'array') return 'an array';
  if (node.type === 'object') return 'an object';
  if (node.type === 'string') return `a string (${JSON.stringify(node.value)})`;
  if (node.type === 'number') return `a number (${String(node.value)})`;
  return `${node.type} (${String(node.value)})`;
}

function valueInfo(node: Node | undefined): { got: ValueKind; gotValue?: string } {
  if (node === undefined) return { got: 'nothing' };
  if (node.type === 'null' || node.type === 'array' || node.type === 'object') return { got: node.type };
  if (node.type === 'string') return { got: 'string', gotValue: JSON.stringify(node.value) };
  if (node.type === 'number' || node.type === 'boolean') return { got: node.type, gotValue: String(node.value) };
  return { got: 'nothing' };
}

const expectedTypes = new Set(['string', 'number', 'int', 'boolean', 'array', 'object', 'record']);
/** Regex checks of the schema, by their pattern (zod reports a failed regex as its source). */
const patternReasons: ReadonlyArray<[RegExp, string]> = [
  [/secret:/, 'not-secret-ref'],
  [/\\x21/, 'not-oauth-scope'],
  [/EdDSA/, 'not-jws-algorithm'],
  [/^\/\^\[A-Za-z_\]\[A-Za-z0-9_\]\*\$\/$/, 'not-env-name'],
];

/** A JS value's kind, as valueInfo gives a JSON node's. */
function jsValueInfo(value: unknown): { got: ValueKind; gotValue?: string } {
  if (value === undefined) return { got: 'nothing' };
  if (value === null) return { got: 'null' };
  if (Array.isArray(value)) return { got: 'array' };
  if (typeof value === 'string') return { got: 'string', gotValue: JSON.stringify(value) };
  if (typeof value === 'number') return { got: 'number', gotValue: String(value) };
  if (typeof value === 'boolean') return { got: 'boolean', gotValue: String(value) };
  return { got: 'object' };
}

/**
 * Any zod issue (of a value that is not the config file: settings) as a reason code and data: `issue.path` read in
 * `value` for what is there.
 */
export function zodIssueInfo(issue: z.core.$ZodIssue, value: unknown): ConfigDetailInfo {
  let at: unknown = value;
  for (const key of issue.path) at = typeof at === 'object' && at !== null ? (at as Record<PropertyKey, unknown>)[key] : undefined;
  return issueInfo(issue, fieldPath(issue.path), jsValueInfo(at));
}

/** A zod path as ConfigDetailInfo's `field`: `mcpServers.a.args[0]` ('' for the root). */
function fieldPath(path: readonly PropertyKey[]): string {
  return path
    .map((k) => (typeof k === 'number' ? `[${k}]` : `.${String(k)}`))
    .join('')
    .replace(/^\./, '');
}

/** A zod issue as a reason code and data (ConfigDetailInfo), for the UI and CLI to word. */
function issueInfo(issue: z.core.$ZodIssue, field: string, got: { got: ValueKind; gotValue?: string }): ConfigDetailInfo {
  const at = { field };
  switch (issue.code) {
    case 'invalid_type':
      if (issue.path.length === 0) return { reason: 'root-not-object', ...got };
      return expectedTypes.has(issue.expected) ? { reason: 'wrong-type', ...at, expected: issue.expected, ...got } : { reason: 'schema', ...at };
    case 'too_small':
      if (issue.origin === 'string' && Number(issue.minimum) === 1) return { reason: 'empty-string', ...at };
      if (issue.origin === 'number') return { reason: issue.inclusive === false ? 'not-above' : 'too-small', ...at, minimum: Number(issue.minimum) };
      return { reason: 'schema', ...at };
    case 'too_big':
      return issue.origin === 'number' ? { reason: 'too-big', ...at, maximum: Number(issue.maximum) } : { reason: 'schema', ...at };
    case 'invalid_format': {
      if (issue.format === 'url') return { reason: 'not-http-url', ...at };
      const pattern = issue.format === 'regex' && 'pattern' in issue && typeof issue.pattern === 'string' ? issue.pattern : '';
      const found = patternReasons.find(([test]) => test.test(pattern));
      return found ? { reason: found[1], ...at } : { reason: 'schema', ...at };
    }
    case 'invalid_value':
      return { reason: 'not-one-of', ...at, values: issue.values.map((v) => String(v)).join(', ') };
    case 'invalid_union':
      return field.endsWith('sandbox') ? { reason: 'sandbox-shape', ...at } : { reason: 'schema', ...at };
    case 'unrecognized_keys':
      return { reason: 'unknown-keys', ...at, keys: issue.keys.join(', ') };
    case 'custom': {
      const params = issue.params ?? {};
      const reason = typeof params.reason === 'string' ? params.reason : 'schema';
      return { reason, ...at, ...(typeof params.type === 'string' ? { type: params.type } : {}) };
    }
    default:
      return { reason: 'schema', ...at };
  }
}

function pathLabel(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out === '' ? 'the file' : out;
}

/**
 * Parses the servers config: JSON with comments and trailing commas; validation errors are located at the
 * offending key's line and column with a message a person can act on.
 */
export function parseServersConfig(text: string, file: string): ServersConfig {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  const first = errors[0];
  if (first !== undefined) {
    const { line, column } = lineColumn(text, first.offset);
    const syntax = printParseErrorCode(first.error);
    throw new ConfigError(file, line, column, `not valid JSON: ${humanParseError(syntax)}`, {
      reason: 'json-syntax',
      syntax: syntax in parseErrorTexts ? syntax : 'other',
    });
  }
  if (root === undefined) throw new ConfigError(file, 1, 1, 'the file is empty; expected { "mcpServers": { … } }', { reason: 'empty-file' });
  const value: unknown = nodeValue(root);
  const result = serversConfigSchema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0] as z.core.$ZodIssue;
  const path = issue.path.filter((k): k is string | number => typeof k !== 'symbol');
  // Point at the deepest node that exists along the path.
  let node: Node | undefined;
  for (let depth = path.length; depth >= 0 && node === undefined; depth--) {
    node = findNodeAtLocation(root, path.slice(0, depth));
  }
  const target = node ?? root;
  const anchor = target.parent?.type === 'property' && target.parent.children?.[1] === target ? target.parent : target;
  const { line, column } = lineColumn(text, anchor.offset);
  const got = findNodeAtLocation(root, path);
  const what = issue.code === 'custom' || issue.code === 'unrecognized_keys' ? '' : `, got ${describeValue(got)}`;
  const label = pathLabel(issue.path);
  const message = issue.path.length === 0 && issue.code === 'invalid_type' ? 'must be an object with an "mcpServers" key' : issue.message;
  throw new ConfigError(file, line, column, `${label} ${message}${what}`, issueInfo(issue, fieldPath(path), valueInfo(got)));
}

/** jsonc-parser's error codes in words: the English catalogue's (the UI and CLI word `reason: json-syntax`, data.syntax, in theirs). */
const parseErrorTexts: Readonly<Record<string, string>> = en.configDetail.syntax;

function humanParseError(code: string): string {
  return parseErrorTexts[code] ?? code;
}

function nodeValue(node: Node): unknown {
  switch (node.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const property of node.children ?? []) {
        const [key, value] = property.children ?? [];
        if (key !== undefined && value !== undefined) out[String(key.value)] = nodeValue(value);
      }
      return out;
    }
    case 'array':
      return (node.children ?? []).map(nodeValue);
    default:
      return node.value;
  }
}

/** Why the file could not be read, as a reason code and data. */
export function unreadableInfo(code: string | undefined): ConfigDetailInfo {
  return code === 'ENOENT' ? { reason: 'file-missing' } : { reason: 'file-unreadable', errno: code ?? 'unknown' };
}

export function readServersConfig(file: string): ServersConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ConfigError(file, 1, 1, code === 'ENOENT' ? 'the file does not exist' : `cannot read the file (${code ?? String(error)})`, unreadableInfo(code));
  }
  return parseServersConfig(text, file);
}

/** The first-run config: the bundled calculator, started with the runtime the app itself runs on. */
export function defaultConfig(runtime: ChildRuntime): ServersConfig {
  return {
    // Editors (VS Code and others) autocomplete and check the file against this.
    $schema: pathToFileURL(schemaPath()).href,
    mcpServers: {
      calculator: {
        command: runtime.command,
        args: [...runtime.args, calculatorPath(), '--debug'],
        env: { ...runtime.env, CALC_PRECISION: '8' },
      },
    },
  };
}

/** Writes the first-run config if (and only if) there is no file yet. Never touches an existing file. */
export function ensureConfigFile(file: string, runtime: ChildRuntime): boolean {
  if (existsSync(file)) return false;
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  try {
    // Users paste tokens into this file: readable only by them.
    writeFileSync(file, `${JSON.stringify(defaultConfig(runtime), null, 2)}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  return true;
}
