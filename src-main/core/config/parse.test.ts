import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pathToFileURL } from 'node:url';
import { ConfigError, defaultConfig, ensureConfigFile, parseServersConfig } from './parse';
import { serversConfigJsonSchemaText } from './json-schema';
import { calculatorPath, schemaPath } from '../support/paths';
import { electronRuntime, nodeRuntime } from './runtime';
import { tempDir } from '../../test-support/processes';

function errorOf(text: string): ConfigError {
  try {
    parseServersConfig(text, 'mcp.json');
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('parseServersConfig', () => {
  it('accepts comments, trailing commas and unknown keys (kept)', () => {
    const config = parseServersConfig('{\n // mine\n "mcpServers": {\n  "a": {"command": "x", "args": ["1",], "myKey": 7},\n },\n "other": true,\n}', 'f');
    expect(config.mcpServers.a).toEqual({ command: 'x', args: ['1'], myKey: 7 });
    expect((config as Record<string, unknown>).other).toBe(true);
  });

  it('understands keys other hosts use', () => {
    const config = parseServersConfig(
      JSON.stringify({ mcpServers: { r: { url: 'https://h/mcp', type: 'sse', disabled: true, timeout: 5000, autoApprove: ['x'] } } }),
      'f',
    );
    expect(config.mcpServers.r?.type).toBe('sse');
  });

  it('takes a protocolVersion pin: auto or a revision', () => {
    const config = parseServersConfig(
      JSON.stringify({ mcpServers: { a: { command: 'x', protocolVersion: '2025-11-25' }, b: { url: 'https://h/mcp', protocolVersion: 'auto' } } }),
      'f',
    );
    expect(config.mcpServers.a?.protocolVersion).toBe('2025-11-25');
    expect(config.mcpServers.b?.protocolVersion).toBe('auto');
  });

  it.each([
    ['{"mcpServers": {"github": {"command": "x", "args": "oops"}}}', 1, 44, 'mcpServers.github.args must be an array of strings, got a string ("oops")'],
    ['{\n  "mcpServers": {\n    "a": {"command": "x"}\n    "b": {}\n  }\n}', 4, 5, 'not valid JSON: expected a comma between entries'],
    ['{\n  "mcpServers": {\n    "a": {}\n  }\n}', 3, 5, 'mcpServers.a needs either "command" (a program to start) or "url" (a remote server)'],
    ['{"mcpServers": {"a": {"command": "x", "env": {"K": 1}}}}', 1, 47, 'mcpServers.a.env.K must be a string, got a number (1)'],
    ['{"mcpServers": {"a": {"url": "ftp://x"}}}', 1, 23, 'mcpServers.a.url must be an http(s) URL, got a string ("ftp://x")'],
    ['{"servers": {}}', 1, 1, 'mcpServers must be an object mapping server names to their definitions, got nothing'],
    ['', 1, 1, 'not valid JSON: expected a value'],
    [
      '{"mcpServers": {"py": {"command": "x", "protocolVersion": "2025"}}}',
      1,
      40,
      'mcpServers.py.protocolVersion must be one of auto, 2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05, got a string ("2025")',
    ],
  ])('locates the problem in %j', (text, line, column, detail) => {
    const error = errorOf(text);
    expect({ line: error.line, column: error.column, detail: error.detail }).toEqual({ line, column, detail });
    expect(error.message).toBe(`mcp.json:${line}:${column}: ${detail}`);
  });
});

describe('ensureConfigFile', () => {
  it('writes the calculator default once and never touches an existing file', () => {
    const dir = tempDir();
    const file = join(dir, 'sub', 'mcp.json');
    // The packaged Electron app: its own binary with the run-script flag (RunAsNode is fused off, so no ELECTRON_RUN_AS_NODE).
    expect(ensureConfigFile(file, electronRuntime('/opt/Switchboard/switchboard'))).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const written = parseServersConfig(readFileSync(file, 'utf8'), file);
    expect(written.mcpServers.calculator).toEqual({
      command: '/opt/Switchboard/switchboard',
      args: ['--switchboard-run-script', '--', calculatorPath(), '--debug'],
      env: { CALC_PRECISION: '8' },
    });
    expect(calculatorPath()).toMatch(/resources[/\\]calculator\.mjs$/);
    expect(existsSync(calculatorPath())).toBe(true);
    writeFileSync(file, '{ broken');
    expect(ensureConfigFile(file, nodeRuntime())).toBe(false);
    expect(readFileSync(file, 'utf8')).toBe('{ broken');
    expect(readdirSync(join(dir, 'sub'))).toEqual(['mcp.json']);
  });

  it('the first-run file references the shipped JSON Schema, which matches the zod schema', () => {
    const config = defaultConfig(nodeRuntime()) as Record<string, unknown>;
    expect(config.$schema).toBe(pathToFileURL(schemaPath()).href);
    // Stale schema file? Run: npx tsx scripts/gen-schema.ts
    expect(readFileSync(schemaPath(), 'utf8')).toBe(serversConfigJsonSchemaText());
    const schema = JSON.parse(readFileSync(schemaPath(), 'utf8')) as {
      properties: { mcpServers: { additionalProperties: { properties: Record<string, unknown> } } };
    };
    expect(Object.keys(schema.properties.mcpServers.additionalProperties.properties)).toEqual(
      expect.arrayContaining(['command', 'args', 'env', 'cwd', 'url', 'headers', 'type', 'disabled', 'timeout', 'envFile', 'autoApprove']),
    );
  });

  it('the default config validates', () => {
    expect(() => parseServersConfig(JSON.stringify(defaultConfig(nodeRuntime())), 'f')).not.toThrow();
  });
});
