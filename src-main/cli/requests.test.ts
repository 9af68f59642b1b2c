import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { RequestAnswer } from '../../src-shared/contract/requests';
import type { AskRequest } from '../core/requests/queue';
import { startFakeProvider, say, sequence, type FakeProvider } from '../test-support/fake-providers';
import { everythingEntry, tempDir } from '../test-support/processes';
import { hasTerminal, runOnTerminal, runPiped, shellQuote as quote } from '../test-support/cli-process';
import { elicitationFields } from '../core/requests/elicitation-schema';
import { answeringOptions, fieldHint, samplingApproval } from './requests';

/**
 * The CLI's answerer for what servers ask: in-process for the form reading, and as a real process both without a
 * terminal (pipes: nothing waits, everything is declined at once with the reason) and on one (a pty from util-linux
 * `script`: it asks on stderr and the typed answer decides).
 */

const fixture = join(import.meta.dirname, 'requests-fixture.ts');

interface Run {
  status: number | null;
  output: string;
  stderr: string;
  answers: RequestAnswer[] | undefined;
}

/** The fixture's answers; undefined when it ended before printing them (interrupted). */
function answersOf(output: string): RequestAnswer[] | undefined {
  const line = output.split(/\r?\n/).find((l) => l.startsWith('ANSWERS '));
  return line === undefined ? undefined : (JSON.parse(line.slice('ANSWERS '.length)) as RequestAnswer[]);
}

function envOf(requests: AskRequest[], extra: Record<string, string>): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: tempDir(), TERM: 'dumb', REQUESTS: JSON.stringify(requests), ...extra };
}

/** Without a terminal: stdin, stdout and stderr are pipes. */
function withoutTerminal(requests: AskRequest[], extra: Record<string, string> = {}): Promise<Run> {
  return piped([fixture], envOf(requests, extra));
}

async function piped(argv: string[], env: Record<string, string>): Promise<Run> {
  const { status, stdout, stderr } = await runPiped(argv, env, { stdin: 'pipe', timeoutMs: 30_000 });
  return { status, output: stdout, stderr, answers: answersOf(stdout) };
}

/**
 * On a terminal: each answer is typed once its prompt has appeared after the previous one (so a prompt asked again
 * — a field re-asked after a bad value — gets the next answer).
 */
function onTerminal(requests: AskRequest[], answers: Array<[RegExp, string]>, extra: Record<string, string> = {}): Promise<Run> {
  return inPty([fixture], envOf(requests, extra), answers);
}

async function inPty(argv: string[], env: Record<string, string>, answers: Array<[RegExp, string]>): Promise<Run> {
  const { status, output } = await runOnTerminal(argv, env, answers);
  return { status, output, stderr: output, answers: answersOf(output) };
}

const sampling: AskRequest = {
  kind: 'sampling',
  server: 'everything',
  title: 'everything asks to run a model',
  payload: {
    messages: [
      {
        role: 'user',
        text: 'Resource trigger-sampling-request context: hello',
        content: { type: 'text', text: 'Resource trigger-sampling-request context: hello' },
      },
    ],
    systemPrompt: 'You are a helpful test server.',
    maxTokens: 100,
    temperature: 0.7,
    models: ['openai:fake-model', 'anthropic:other-model'],
    model: 'openai:fake-model',
  },
};

const samplingResult: AskRequest = {
  kind: 'sampling-result',
  server: 'everything',
  title: "everything: the model's answer",
  payload: { model: 'openai:fake-model', text: 'Hello from the model', stopReason: 'endTurn' },
};

/** The shape of server-everything's trigger-elicitation-request form, trimmed. */
const requestedSchema = {
  type: 'object',
  properties: {
    name: { title: 'String', type: 'string', description: 'Your full, legal name' },
    check: { title: 'Boolean', type: 'boolean', description: 'Agree to the terms and conditions' },
    email: { title: 'Email', type: 'string', format: 'email' },
    integer: { title: 'Integer', type: 'integer', minimum: 1, maximum: 100, default: 42 },
    hero: {
      type: 'string',
      title: 'Hero',
      oneOf: [
        { const: 'hero-1', title: 'Superman' },
        { const: 'hero-2', title: 'Green Lantern' },
        { const: 'hero-3', title: 'Wonder Woman' },
      ],
      default: 'hero-1',
    },
    fish: {
      type: 'array',
      title: 'Fish',
      minItems: 1,
      maxItems: 2,
      items: {
        anyOf: [
          { const: 'fish-1', title: 'Tuna' },
          { const: 'fish-2', title: 'Salmon' },
          { const: 'fish-3', title: 'Trout' },
        ],
      },
      default: ['fish-1'],
    },
    pet: { type: 'string', title: 'Pet', enum: ['pet-1', 'pet-2', 'pet-3'], enumNames: ['Cats', 'Dogs', 'Birds'], default: 'pet-1' },
    nickname: { type: 'string', title: 'Nickname' },
  },
  required: ['name', 'email'],
};

const form: AskRequest = {
  kind: 'elicitation-form',
  server: 'everything',
  title: 'everything asks you to fill in a form',
  payload: { message: 'Please provide inputs for the following fields:', requestedSchema },
};

const link = (url: string): AskRequest => ({
  kind: 'elicitation-url',
  server: 'everything',
  title: 'everything asks you to open a link',
  payload: { message: 'Please open the link to complete this action.', url, host: new URL(url).host, elicitationId: 'e-1' },
});

describe('a form field as the prompt describes it', () => {
  const fields = elicitationFields(requestedSchema);
  const hint = (name: string): string => fieldHint(fields.find((f) => f.name === name) ?? fields[0]!);

  it('names what it takes: format, whole number and range, choices by number with the default, counts', () => {
    expect(fields.map((f) => f.name)).toEqual(['name', 'check', 'email', 'integer', 'hero', 'fish', 'pet', 'nickname']);
    expect([hint('name'), hint('check'), hint('email'), hint('integer'), hint('hero'), hint('fish'), hint('pet')]).toEqual([
      '',
      ' (y/n)',
      ' (email)',
      ' (whole number, 1–100, [42])',
      ' (number, [1])',
      ' (numbers, comma-separated, 1–2 of them, [1])',
      ' (number, [1])',
    ]);
  });
});

describe('--approve and the terminal decide whether the host can be asked', () => {
  const pipe = (): PassThrough => new PassThrough();
  const tty = (): PassThrough & { isTTY: true } => Object.assign(new PassThrough(), { isTTY: true as const });

  it('no terminal: non-interactive with a reason that says how to fix it, unless --approve all', () => {
    expect(answeringOptions({}, { stdin: pipe(), stderr: pipe() })).toEqual({
      interactive: false,
      noAnswererReason: expect.stringContaining('--approve all'),
      answerSource: 'cli',
    });
    expect(answeringOptions({ approve: 'none' }, { stdin: pipe(), stderr: tty() }).interactive).toBe(false);
    expect(answeringOptions({ approve: 'all' }, { stdin: pipe(), stderr: pipe() }).interactive).toBe(true);
    expect(answeringOptions({ approve: 'ask' }, { stdin: tty(), stderr: tty() }).interactive).toBe(true);
    expect([samplingApproval(undefined), samplingApproval('readonly'), samplingApproval('all'), samplingApproval('none')]).toEqual([
      'ask',
      'ask',
      'all',
      'none',
    ]);
  });
});

describe('without a terminal', () => {
  it('declines every request at once, with the reason on stderr, and nothing waits', async () => {
    const run = await withoutTerminal([sampling, form, link('https://example.com/consent')]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.answers?.map((a) => a.action)).toEqual(['decline', 'decline', 'decline']);
    expect(run.answers?.[0]).toEqual({ action: 'decline', reason: expect.stringContaining('no terminal to ask on') });
    expect(run.stderr).toContain(
      'everything: sampling request declined — there is no terminal to ask on: run it in a terminal to answer, or pass --approve all',
    );
    expect(run.stderr).toContain('everything: form declined');
    expect(run.stderr).toContain('everything: link declined');
  });

  it('--approve all allows sampling and sends the answer without asking; a form is still declined', async () => {
    const run = await withoutTerminal([sampling, samplingResult, form], { APPROVE: 'all' });
    expect(run.status, run.stderr).toBe(0);
    expect(run.answers).toEqual([
      { action: 'accept', content: {} },
      { action: 'accept', content: {} },
      { action: 'decline', reason: expect.stringContaining('no terminal') },
    ]);
    expect(run.stderr).toContain(
      'everything: sampling allowed (--approve all) — 1 message(s), maxTokens 100: Resource trigger-sampling-request context: hello',
    );
    expect(run.stderr).toContain("everything: the model's answer sent (--approve all) — Hello from the model");
  });
});

describe.skipIf(!hasTerminal)(
  `on a terminal${hasTerminal ? '' : ' — skipped: /usr/bin/script (util-linux) is not installed, so there is no terminal to ask on'}`,
  () => {
    it('sampling: shows what is asked, "y" approves; then the model\'s answer, edited, is sent', async () => {
      const run = await onTerminal(
        [sampling, samplingResult],
        [
          [/Run the model for everything\? {2}\[y\] yes {2}\[m\] pick another model {2}\[N\] decline: /, 'y\r'],
          [/Send this answer to everything\? {2}\[y\] send {2}\[e\] edit {2}\[N\] decline: /, 'e\r'],
          [/Your answer \(one line; Enter sends it\): /, 'Edited answer\r'],
        ],
      );
      expect(run.status, run.output).toBe(0);
      expect(run.answers).toEqual([
        { action: 'accept', content: {} },
        { action: 'accept', content: { text: 'Edited answer' } },
      ]);
      expect(run.output).toContain('system prompt: You are a helpful test server.');
      expect(run.output).toContain('user:          Resource trigger-sampling-request context: hello');
      expect(run.output).toContain('maxTokens:     100, temperature 0.7');
      expect(run.output).toContain('model:         openai:fake-model');
      expect(run.output).toContain('answer: Hello from the model');
    });

    it('sampling: [m] picks another model; anything else declines; --approve none declines without asking', async () => {
      const picked = await onTerminal(
        [sampling, sampling],
        [
          [/\[N\] decline: /, 'm\r'],
          [/Model number \(Enter: openai:fake-model\): /, '2\r'],
          [/\[N\] decline: /, '\r'],
        ],
      );
      expect(picked.answers).toEqual([
        { action: 'accept', content: { model: 'anthropic:other-model' } },
        { action: 'decline', reason: 'the person declined' },
      ]);
      const none = await onTerminal([sampling], [], { APPROVE: 'none' });
      expect(none.answers).toEqual([{ action: 'decline', reason: 'sampling is declined by --approve none' }]);
      expect(none.output).not.toContain('Run the model');
      expect(none.output).toContain('everything: sampling request declined (--approve none)');
    });

    it('a form, field by field: defaults on Enter, bad values asked again, choices by number; then the next request in order', async () => {
      const run = await onTerminal(
        [form, link('https://example.com/x')],
        [
          [/Fill in the form\? {2}\[y\] yes {2}\[N\] decline {2}\[c\] cancel: /, 'y\r'],
          [/String \*: /, '\r'],
          [/String is required\.[\s\S]*String \*: /, 'Ann Example\r'],
          [/Boolean \(y\/n\): /, 'y\r'],
          [/Email \* \(email\): /, 'ann\r'],
          [/must be an email address[\s\S]*Email \* \(email\): /, 'ann@example.com\r'],
          [/Integer \(whole number, 1–100, \[42\]\): /, '\r'],
          [/3\) Wonder Woman \(hero-3\)[\s\S]*Hero \(number, \[1\]\): /, '3\r'],
          [/Fish \(numbers, comma-separated, 1–2 of them, \[1\]\): /, '2,3\r'],
          [/2\) Dogs \(pet-2\)[\s\S]*Pet \(number, \[1\]\): /, '\r'],
          [/Nickname: /, '\r'],
          [/Open it in your browser\?/, 'n\r'],
        ],
      );
      expect(run.status, run.output).toBe(0);
      expect(run.answers).toEqual([
        {
          action: 'accept',
          content: {
            content: { name: 'Ann Example', check: true, email: 'ann@example.com', integer: 42, hero: 'hero-3', fish: ['fish-2', 'fish-3'], pet: 'pet-1' },
          },
        },
        { action: 'decline', reason: 'the person declined to open the link' },
      ]);
      // One at a time: the link was asked only after the form was done.
      expect(run.output.indexOf('URL:  https://example.com/x')).toBeGreaterThan(run.output.indexOf('Nickname: '));
    });

    it('a form can be declined or cancelled before any field', async () => {
      const run = await onTerminal(
        [form, form],
        [
          [/\[c\] cancel: /, 'c\r'],
          [/\[c\] cancel: /, '\r'],
        ],
      );
      expect(run.answers).toEqual([
        { action: 'cancel', reason: 'the person cancelled' },
        { action: 'decline', reason: 'the person declined' },
      ]);
    });

    it('a link: the full URL and its host are shown; the browser starts only after "y", and only for https', async () => {
      const home = tempDir();
      const opened = join(home, 'opened.txt');
      const browser = join(home, 'browser.sh');
      writeFileSync(browser, `#!/bin/sh\nprintf '%s\\n' "$1" >> ${quote(opened)}\n`);
      chmodSync(browser, 0o755);
      const url = 'https://auth.example.com/consent?state=abc&x=1';
      const declined = await onTerminal([link(url)], [[/Open it in your browser\? {2}\[y\] open {2}\[N\] decline: /, 'n\r']], { BROWSER: browser });
      expect(declined.answers).toEqual([{ action: 'decline', reason: 'the person declined to open the link' }]);
      expect(declined.output).toContain('host: auth.example.com');
      expect(declined.output).toContain(`URL:  ${url}`);
      expect(existsSync(opened)).toBe(false);

      const yes = await onTerminal(
        [link(url), link('http://plain.example.com/x')],
        [
          [/Open it in your browser\? {2}\[y\] open {2}\[N\] decline: /, 'y\r'],
          [/Consent \(you open it yourself\)\? {2}\[y\] yes {2}\[N\] decline: /, 'y\r'],
        ],
        { BROWSER: browser },
      );
      expect(yes.answers).toEqual([
        { action: 'accept', content: {} },
        { action: 'accept', content: {} },
      ]);
      expect(yes.output).toContain('Opened auth.example.com in your browser.');
      expect(yes.output).toContain('This is not an https link: Switchboard will not open it for you.');
      // The browser script is detached: wait for its line rather than for its exit.
      for (let i = 0; i < 100 && !existsSync(opened); i++) await new Promise((r) => setTimeout(r, 50));
      expect(readFileSync(opened, 'utf8')).toBe(`${url}\n`);
    });

    it('Ctrl+D at a prompt declines it and whatever comes after; Ctrl+C interrupts the process', async () => {
      const ended = await onTerminal([sampling, form], [[/Run the model for everything\?/, '\x04']]);
      expect(ended.status, ended.output).toBe(0);
      expect(ended.answers).toEqual([
        { action: 'decline', reason: 'no answer: the terminal input ended' },
        { action: 'decline', reason: expect.stringContaining('no terminal to ask on') },
      ]);
      const interrupted = await onTerminal([sampling], [[/Run the model for everything\?/, '\x03']]);
      expect(interrupted.answers).toBeUndefined();
      expect(interrupted.status).toBe(130);
    });

    it('a request that times out while it is asked is cancelled, the prompt stops and says why', async () => {
      const run = await onTerminal([sampling], [], { TIMEOUT_MS: '1500' });
      expect(run.answers).toEqual([{ action: 'cancel', reason: 'timed out after 2 s with no answer' }]);
      expect(run.output).toContain('everything: sampling request timed out — timed out after 2 s with no answer');
    });
  },
);

/** `switchboard call` against server-everything's sampling, elicitation and URL tools, with a fake model on loopback. */
describe('switchboard call: what server-everything asks', () => {
  const main = join(import.meta.dirname, 'main.ts');
  const setup = async (): Promise<{ env: Record<string, string>; config: string; fake: FakeProvider }> => {
    const fake = await startFakeProvider('openai', sequence(say('Hello from the fake model')));
    const home = tempDir();
    const config = join(home, 'mcp.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [everythingEntry, 'stdio'] } } }));
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: home,
      TERM: 'dumb',
      OPENAI_BASE_URL: fake.baseURL,
      OPENAI_API_KEY: 'sk-requests-test-0000',
      SWITCHBOARD_MODEL: 'openai:fake-model',
    };
    return { env, config, fake };
  };
  const sample = ['call', 'everything', 'trigger-sampling-request', '{"prompt":"say hello","maxTokens":50}'];

  it('without a terminal: sampling is declined before any model is asked (exit 1); --approve all runs it (exit 0); --approve none declines', async () => {
    const { env, config, fake } = await setup();
    try {
      const declined = await piped([main, '--config', config, ...sample], env);
      expect(declined.status, declined.stderr).toBe(1);
      expect(declined.stderr).toContain('everything: sampling request declined — there is no terminal to ask on');
      const none = await piped([main, '--config', config, '--approve', 'none', ...sample], env);
      expect(none.status, none.stderr).toBe(1);
      expect(fake.requests).toHaveLength(0);
      const all = await piped([main, '--config', config, '--approve', 'all', ...sample], env);
      expect(all.status, all.stderr).toBe(0);
      expect(all.output).toContain('Hello from the fake model');
      expect(all.stderr).toContain('everything: sampling allowed (--approve all)');
      expect(fake.requests).toHaveLength(1);
      expect(fake.requests[0]?.lastUserText).toContain('say hello');
    } finally {
      await fake.close();
    }
  });

  it('without a terminal: a form is declined at once and the tool says so (exit 0)', async () => {
    const { env, config, fake } = await setup();
    try {
      const run = await piped([main, '--config', config, 'call', 'everything', 'trigger-elicitation-request'], env);
      expect(run.status, run.stderr).toBe(0);
      expect(run.output).toContain('User declined to provide the requested information');
      expect(run.stderr).toContain('everything: form declined — there is no terminal to ask on');
    } finally {
      await fake.close();
    }
  });

  it.skipIf(!hasTerminal)(
    `on a terminal: approve the sampling and send the answer; fill the form; decline a link${hasTerminal ? '' : ' — skipped: no /usr/bin/script'}`,
    async () => {
      const { env, config, fake } = await setup();
      try {
        const sampled = await inPty([main, '--config', config, ...sample], env, [
          [/Run the model for everything\?/, 'y\r'],
          [/Send this answer to everything\?/, 'y\r'],
        ]);
        expect(sampled.status, sampled.output).toBe(0);
        expect(sampled.output).toContain('Resource trigger-sampling-request context: say hello');
        expect(sampled.output).toContain('Hello from the fake model');
        expect(fake.requests).toHaveLength(1);

        const filled = await inPty([main, '--config', config, 'call', 'everything', 'trigger-elicitation-request'], env, [
          [/Fill in the form\?/, 'y\r'],
          [/String \*: /, 'Ann Example\r'],
          [/Boolean \(y\/n\): /, 'y\r'],
          // The eleven other fields, each left at its default (or empty) with Enter.
          ...Array.from({ length: 11 }, (): [RegExp, string] => [/\): /, '\r']),
        ]);
        expect(filled.status, filled.output).toBe(0);
        expect(filled.output).toContain('User provided the requested information');
        expect(filled.output).toContain('- Name: Ann Example');
        expect(filled.output).toContain('- Favorite Integer: 42');

        const link = await inPty([main, '--config', config, 'call', 'everything', 'trigger-url-elicitation', '{"url":"https://example.com/consent"}'], env, [
          [/Open it in your browser\?/, 'n\r'],
        ]);
        expect(link.status, link.output).toBe(0);
        expect(link.output).toContain('URL:  https://example.com/consent');
        expect(link.output).toContain('User declined to open the URL');
      } finally {
        await fake.close();
      }
    },
  );
});
