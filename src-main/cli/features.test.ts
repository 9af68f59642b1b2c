// The issue-9 CLI as QA scripts use it: real CLI processes (tsx) over features-server.mjs — "modern" answers
// 2026-07-28 over stdio, "legacy" only the initialize era — for resources, read, prompts, prompt, complete, ping,
// call --progress, --log-level and --trace: text, --json shapes and exit codes.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliSync } from '../test-support/cli-process';
import { writeFeaturesCliConfig } from '../test-support/features-fixture';
import { tempDir } from '../test-support/processes';

const cliArgs = ['--import', 'tsx', join(__dirname, 'main.ts')];

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** One CLI run with a fresh HOME (or the one given) and a config of the two fixture servers (and a broken one). */
function cli(args: string[], home = tempDir()): Run {
  return runCliSync(['--config', writeFeaturesCliConfig(home), ...args], { HOME: home });
}

const json = (r: Run): unknown => {
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
};

describe('CLI: prompts and prompt', () => {
  it("prompts lists every ready server's prompts (--json shape); prompt prints the messages (--json: the result)", () => {
    const listed = json(cli(['--json', 'prompts'])) as Array<{ server: string; name: string }>;
    expect(listed.map((p) => `${p.server}/${p.name}`)).toEqual(['modern/greet', 'modern/summarize-resource', 'legacy/greet', 'legacy/summarize-resource']);
    expect(listed[0]).toEqual({
      server: 'modern',
      name: 'greet',
      title: 'Greet',
      description: 'A greeting for someone',
      arguments: [
        { name: 'name', description: 'Who to greet', required: true },
        { name: 'style', description: 'formal, casual or pirate', required: false },
      ],
    });
    const text = cli(['prompts', 'legacy']);
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toMatch(
      /^SERVER\s+PROMPT\s+ARGUMENTS\s+DESCRIPTION\nlegacy\s+greet\s+name \[style\]\s+A greeting for someone\nlegacy\s+summarize-resource\s+uri\s+Asks for/,
    );

    const greet = cli(['prompt', 'legacy', 'greet', '{"name": "Ann", "style": "pirate"}']);
    expect([greet.status, greet.stdout]).toEqual([0, '[user]\nPlease greet me like this: Ahoy, Ann!\n']);
    const summary = json(cli(['--json', 'prompt', 'modern', 'summarize-resource', '{"uri": "fixture://static/hello.txt"}']));
    expect(summary).toEqual({
      messages: [
        { role: 'user', content: { type: 'text', text: 'Summarize this resource:' } },
        {
          role: 'user',
          content: { type: 'resource', resource: { uri: 'fixture://static/hello.txt', mimeType: 'text/plain', text: 'Hello from the features fixture.\n' } },
        },
      ],
    });
  }, 60_000);

  it('a missing required argument exits 1 naming it; malformed ARGS_JSON and non-string values exit 2', () => {
    const missing = cli(['prompt', 'modern', 'greet', '{"style": "formal"}']);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('The prompt "greet" of server "modern" needs the argument "name".');
    const malformed = cli(['prompt', 'modern', 'greet', '{name: 1}']);
    expect(malformed.status).toBe(2);
    expect(malformed.stderr).toContain('ARGS_JSON is not valid JSON');
    const number = cli(['prompt', 'modern', 'greet', '{"name": 1}']);
    expect(number.status).toBe(2);
    expect(number.stderr).toContain('ARGS_JSON: "name" must be a string (prompt arguments are text), got 1');
    expect(cli(['prompt', 'modern']).status).toBe(2);
  }, 60_000);
});

describe('CLI: resources, read and complete', () => {
  it('resources --json: resources first, then templates, each naming its server', () => {
    const rows = json(cli(['--json', 'resources', 'legacy'])) as Array<Record<string, unknown>>;
    expect(rows).toHaveLength(124); // hello.txt, pixel.png, counter, many/0 … many/119, then the template
    expect(rows[0]).toEqual({
      server: 'legacy',
      uri: 'fixture://static/hello.txt',
      name: 'hello',
      title: 'Hello',
      description: 'A short text',
      mimeType: 'text/plain',
    });
    expect(rows.slice(0, 123).every((r) => typeof r.uri === 'string' && r.uriTemplate === undefined)).toBe(true);
    expect(rows[123]).toMatchObject({ server: 'legacy', uriTemplate: 'fixture://items/{category}/{id}' });
    const text = cli(['resources', 'modern']);
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^SERVER\s+URI\s+NAME\s+MIME\s+DESCRIPTION\nmodern\s+fixture:\/\/static\/hello\.txt\s+hello\s+text\/plain\s+A short text\n/);
    expect(text.stdout).toMatch(/\nSERVER\s+URI TEMPLATE\s+NAME\s+MIME\s+DESCRIPTION\nmodern\s+fixture:\/\/items\/\{category\}\/\{id\}/);
  }, 60_000);

  it('read prints text as is and blobs as [blob MIME, N bytes]; --json is the read result; a failure exits 1', () => {
    expect(cli(['read', 'modern', 'fixture://static/hello.txt'])).toMatchObject({ status: 0, stdout: 'Hello from the features fixture.\n' });
    expect(cli(['read', 'legacy', 'fixture://static/pixel.png'])).toMatchObject({
      status: 0,
      stdout: expect.stringMatching(/^\[blob image\/png, \d+ bytes\]\n$/),
    });
    const result = json(cli(['--json', 'read', 'legacy', 'fixture://items/grain/rye']));
    expect(result).toEqual({ contents: [{ uri: 'fixture://items/grain/rye', mimeType: 'application/json', text: '{"category":"grain","id":"rye"}' }] });
    const unknown = cli(['read', 'modern', 'fixture://nope']);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('fixture://nope');
    expect(cli(['read', 'modern']).status).toBe(2);
  }, 60_000);

  it('complete: a prompt argument and a template variable (with --context), one value per line; --json is the completion', () => {
    expect(cli(['complete', 'modern', 'prompt', 'greet', 'style', 'p'])).toMatchObject({ status: 0, stdout: 'pirate\n' });
    const ids = cli(['complete', 'legacy', 'resource', 'fixture://items/{category}/{id}', 'id', 'r', '--context', '{"category": "grain"}']);
    expect([ids.status, ids.stdout]).toEqual([0, 'rice\nrye\n']);
    expect(json(cli(['--json', 'complete', 'modern', 'resource', 'fixture://items/{category}/{id}', 'category', '']))).toMatchObject({
      values: ['fruit', 'vegetable', 'grain'],
    });
    const badKind = cli(['complete', 'modern', 'tool', 'greet', 'style', 'p']);
    expect(badKind.status).toBe(2);
    expect(badKind.stderr).toContain('complete: the second word must be prompt or resource, got "tool"');
  }, 60_000);
});

describe('CLI: ping', () => {
  it('ping answers with the round trip (legacy ping, 2026-07-28 server/discover); not ready exits 1, unknown 2', () => {
    expect(cli(['ping', 'legacy'])).toMatchObject({ status: 0, stdout: expect.stringMatching(/^ping \d+ ms\n$/) });
    expect(cli(['ping', 'modern'])).toMatchObject({ status: 0, stdout: expect.stringMatching(/^ping \d+ ms \(server\/discover\)\n$/) });
    expect(json(cli(['--json', 'ping', 'legacy']))).toEqual({ server: 'legacy', method: 'ping', ms: expect.any(Number) });
    const broken = cli(['ping', 'broken']);
    expect(broken.status).toBe(1);
    expect(broken.stderr).toContain('Server "broken" is error');
    const unknown = cli(['ping', 'nope']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('nope');
  }, 60_000);
});

describe('CLI: what a command shows besides its result', () => {
  it("--log-level LEVEL: the servers' messages at or above it on stderr, in both eras; none without it", () => {
    const levels = ['warning', 'error', 'critical', 'alert', 'emergency'];
    for (const server of ['modern', 'legacy']) {
      const r = cli(['--log-level', 'warning', 'call', server, 'log']);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stderr.split('\n').filter((l) => l.startsWith(`[${server}]`))).toEqual(levels.map((l) => `[${server}] ${l} fixture: a ${l} message`));
    }
    const debug = cli(['--log-level', 'debug', 'call', 'modern', 'log']);
    expect(debug.stderr).toContain('[modern] debug fixture: a debug message');
    expect(cli(['call', 'legacy', 'log']).stderr).not.toContain('[legacy]');
    const bad = cli(['--log-level', 'loud', 'list']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--log-level must be one of debug, info, notice, warning, error, critical, alert, emergency, got "loud"');
  }, 90_000);

  it('call --progress: progress lines on stderr while the tool runs, the result on stdout', () => {
    const r = cli(['call', 'legacy', 'slow', '{"steps": 3, "delayMs": 100}', '--progress']);
    expect([r.status, r.stdout]).toEqual([0, 'slow done: 3 steps\n']);
    const lines = r.stderr.split('\n').filter((l) => l.startsWith('progress '));
    // SDK 2.4.0 may drop the last notification when it shares a chunk with the result (see features-server.mjs).
    expect(lines.slice(0, 2)).toEqual(['progress 1/3 step 1 of 3', 'progress 2/3 step 2 of 3']);
    expect(cli(['call', 'legacy', 'slow', '{"steps": 2, "delayMs": 10}']).stderr).not.toContain('progress ');
    const task = cli(['call', 'modern', 'research', '{"topic": "cli", "stageMs": 50}', '--progress']);
    expect([task.status, task.stdout]).toEqual([0, 'research done: cli\n']);
    expect(task.stderr).toMatch(/^task \S+ completed/m);
  }, 60_000);

  it('--trace FILE: every JSON-RPC message as a JSON line {time, server, direction, traceId?, message}, secret values redacted', () => {
    const home = tempDir();
    const secret = 'sk-trace-test-secret-value-1234567890';
    const set = cli(['secret', 'set', 'probe_value', secret], home);
    expect(set.status, set.stderr).toBe(0);
    const file = join(home, 'trace.jsonl');
    const r = cli(['--trace', file, 'prompt', 'legacy', 'greet', JSON.stringify({ name: secret })], home);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(secret); // the answer itself is the user's to see
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(secret);
    const lines = text
      .trim()
      .split('\n')
      .map(
        (l) =>
          JSON.parse(l) as {
            time: string;
            server: string;
            direction: string;
            traceId?: string;
            message: { id?: number; method?: string; params?: { _meta?: { traceparent?: string } } };
          },
      );
    for (const line of lines) {
      expect(Object.keys(line)).toEqual(
        line.traceId === undefined ? ['time', 'server', 'direction', 'message'] : ['time', 'server', 'direction', 'traceId', 'message'],
      );
      expect(new Date(line.time).toISOString()).toBe(line.time);
      expect(['send', 'receive']).toContain(line.direction);
    }
    const get = lines.find((l) => l.server === 'legacy' && l.direction === 'send' && l.message.method === 'prompts/get');
    expect(get).toBeDefined();
    const answer = lines.find((l) => l.server === 'legacy' && l.direction === 'receive' && l.message.id === get?.message.id);
    expect(answer).toBeDefined();
    // The request's trace id (from its traceparent) is on its line and on its response's.
    expect(get?.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(get?.message.params?._meta?.traceparent).toContain(get?.traceId);
    expect(answer?.traceId).toBe(get?.traceId);
    // The command names one server, the only one started (and traced).
    expect(lines.some((l) => l.server === 'modern')).toBe(false);
    const bad = cli(['--trace', join(home, 'no', 'such', 'dir', 't.jsonl'), 'list'], home);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('cannot write the trace to');
  }, 60_000);

  it('--help names every command and option', () => {
    const r = spawnSync(process.execPath, [...cliArgs, '--help'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    for (const word of [
      'resources [SERVER]',
      'read SERVER URI',
      'prompts [SERVER]',
      'prompt SERVER NAME [ARGS_JSON]',
      'complete SERVER prompt|resource NAME_OR_TEMPLATE ARG VALUE',
      'ping SERVER',
      '--progress',
      '--log-level LEVEL',
      '--trace FILE',
    ]) {
      expect(r.stdout).toContain(word);
    }
  });
});
