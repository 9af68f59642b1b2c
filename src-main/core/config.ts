import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { findNodeAtLocation, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import type { z } from 'zod';
import { serversConfigSchema, type ServersConfig } from '../../src-shared/config-schema';
import { pathToFileURL } from 'node:url';
import { calculatorPath, schemaPath } from './paths';
import type { ChildRuntime } from './runtime';

/** A config problem pinned to a place in the file, printed as `FILE:LINE:COL: message`. */
export class ConfigError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly column: number,
    readonly detail: string,
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
    throw new ConfigError(file, line, column, `not valid JSON: ${humanParseError(printParseErrorCode(first.error))}`);
  }
  if (root === undefined) throw new ConfigError(file, 1, 1, 'the file is empty; expected { "mcpServers": { … } }');
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
  throw new ConfigError(file, line, column, `${label} ${message}${what}`);
}

function humanParseError(code: string): string {
  const table: Record<string, string> = {
    InvalidSymbol: 'unexpected character',
    InvalidNumberFormat: 'malformed number',
    PropertyNameExpected: 'expected a property name in double quotes',
    ValueExpected: 'expected a value',
    ColonExpected: 'expected a colon after the property name',
    CommaExpected: 'expected a comma between entries',
    CloseBraceExpected: 'expected a closing brace }',
    CloseBracketExpected: 'expected a closing bracket ]',
    EndOfFileExpected: 'unexpected text after the end of the document',
    UnexpectedEndOfComment: 'a comment is not closed',
    UnexpectedEndOfString: 'a string is not closed',
    UnexpectedEndOfNumber: 'a number is cut off',
    InvalidUnicode: 'invalid unicode escape',
    InvalidEscapeCharacter: 'invalid escape character',
    InvalidCharacter: 'invalid character in a string',
  };
  return table[code] ?? code;
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

export function readServersConfig(file: string): ServersConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ConfigError(file, 1, 1, code === 'ENOENT' ? 'the file does not exist' : `cannot read the file (${code ?? String(error)})`);
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
