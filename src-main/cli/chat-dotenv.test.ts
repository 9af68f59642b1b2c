import { readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { calculatorPath } from '../core/support/paths';
import { calculatorModel, startFakeProvider, type FakeProvider } from '../test-support/fake-providers';
import { hasTerminal, runOnTerminal, runPiped, type Piped } from '../test-support/cli-process';
import { tempDir } from '../test-support/processes';

/*
 * A cloned repository's `.env` must not redirect `switchboard chat`. The person's own setup: an OpenAI-compatible
 * endpoint in the environment Switchboard is started with. The folder they run it in has a `.env` that says
 * SWITCHBOARD_MODEL=ollama:… and OLLAMA_BASE_URL=<another loopback server>. That server gets nothing until the person
 * passes --trust-dotenv (this run) or answers y on a terminal (recorded, asked again when a value changes); every run
 * says on stderr where the chat goes.
 */

const main = join(import.meta.dirname, 'main.ts');
const key = 'sk-cli-dotenv-test-key-abcdef';

const fakes: FakeProvider[] = [];
afterEach(async () => {
  for (const fake of fakes.splice(0)) await fake.close();
});
async function fake(): Promise<FakeProvider> {
  const started = await startFakeProvider('openai', calculatorModel());
  fakes.push(started);
  return started;
}

interface Setup {
  config: string;
  home: string;
  /** The folder the CLI runs in, holding the repository's `.env`. */
  repo: string;
  dotenv: string;
  env: Record<string, string>;
}

async function setup(own: FakeProvider, redirect: FakeProvider): Promise<Setup> {
  const home = tempDir();
  const config = join(home, 'mcp.json');
  writeFileSync(config, JSON.stringify({ mcpServers: { calculator: { command: process.execPath, args: [calculatorPath()] } } }));
  const repo = realpathSync(tempDir('switchboard-repo-'));
  const dotenv = join(repo, '.env');
  writeFileSync(dotenv, `SWITCHBOARD_MODEL=ollama:fake-model\nOLLAMA_BASE_URL=${redirect.baseURL}\n`);
  const env = { PATH: process.env.PATH ?? '', HOME: home, OPENAI_BASE_URL: own.baseURL, OPENAI_API_KEY: key };
  return { config, home, repo, dotenv, env };
}

function chat(s: Setup, flags: string[] = []): Promise<Piped> {
  return runPiped([main, '--config', s.config, 'chat', '--approve', 'all', ...flags, 'what is 2+3'], s.env, { cwd: s.repo });
}

describe('switchboard chat in a folder whose .env names a model and an endpoint', () => {
  it('leaves them out, saying so, until --trust-dotenv; the first line says where the chat goes', async () => {
    const own = await fake();
    const redirect = await fake();
    const s = await setup(own, redirect);

    const held = await chat(s);
    expect(held.status, held.stderr).toBe(0);
    expect(held.stdout).toBe('The answer is 5\n');
    expect(redirect.requests).toHaveLength(0);
    expect(own.requests.length).toBeGreaterThan(0);
    expect(held.stderr).toContain(`not using SWITCHBOARD_MODEL=ollama:fake-model, OLLAMA_BASE_URL=${redirect.baseURL} from ${s.dotenv}`);
    expect(held.stderr).toContain('--trust-dotenv');
    // The start line: provider, model, endpoint, and where each came from.
    expect(held.stderr).toContain(
      `chat: OpenAI, model gpt-5, at ${own.baseURL} (model: the first configured provider's first model; endpoint: OPENAI_BASE_URL in the environment)`,
    );

    const trusted = await chat(s, ['--trust-dotenv']);
    expect(trusted.status, trusted.stderr).toBe(0);
    expect(trusted.stdout).toBe('The answer is 5\n');
    expect(redirect.requests.length).toBeGreaterThan(0);
    expect(trusted.stderr).toContain(
      `chat: Ollama, model fake-model, at ${redirect.baseURL} (model: SWITCHBOARD_MODEL in ${s.dotenv}; endpoint: OLLAMA_BASE_URL in ${s.dotenv})`,
    );
    expect(trusted.stderr).not.toContain('not using');

    // The flag counts for its run only.
    const seen = redirect.requests.length;
    const again = await chat(s);
    expect(again.stderr).toContain('not using SWITCHBOARD_MODEL=ollama:fake-model');
    expect(redirect.requests).toHaveLength(seen);
  });

  it('--model names the model; the folder’s base URL for it still waits', async () => {
    const own = await fake();
    const redirect = await fake();
    const s = await setup(own, redirect);
    const r = await chat(s, ['--model', 'openai:fake-model']);
    expect(r.status, r.stderr).toBe(0);
    // Only what this turn would use is asked about: an Ollama base URL does not concern an OpenAI model.
    expect(r.stderr).not.toContain('not using');
    expect(r.stderr).toContain(`chat: OpenAI, model fake-model, at ${own.baseURL} (model: --model; endpoint: OPENAI_BASE_URL in the environment)`);

    const ollama = await chat(s, ['--model', 'ollama:fake-model']);
    expect(ollama.stderr).toContain(`not using OLLAMA_BASE_URL=${redirect.baseURL} from ${s.dotenv}`);
    expect(ollama.stderr).toContain("chat: Ollama, model fake-model, at http://127.0.0.1:11434/v1 (model: --model; endpoint: the provider's default)");
    expect(redirect.requests).toHaveLength(0);
  });

  it.skipIf(!hasTerminal)(
    `on a terminal it asks once; a yes is recorded (0600) and a changed value asks again${hasTerminal ? '' : ' — skipped: no /usr/bin/script to give it a terminal'}`,
    async () => {
      const own = await fake();
      const redirect = await fake();
      const s = await setup(own, redirect);
      const asked = await runOnTerminal(
        [main, '--config', s.config, 'chat', '--approve', 'all', 'what is 2+3'],
        { ...s.env, TERM: 'dumb' },
        [[/Send your chat there\?.*\[N\] no: /, 'y\r']],
        60_000,
        s.repo,
      );
      expect(asked.status, asked.output).toBe(0);
      expect(asked.output).toContain('The answer is 5');
      expect(redirect.requests.length).toBeGreaterThan(0);
      const recorded = join(s.home, '.config', 'Switchboard', 'dotenv-choices.json');
      expect(statSync(recorded).mode & 0o777).toBe(0o600);
      expect(readFileSync(recorded, 'utf8')).toContain(s.dotenv);

      // Confirmed: a run without a terminal uses it, without asking.
      const seen = redirect.requests.length;
      const confirmed = await chat(s);
      expect(confirmed.status, confirmed.stderr).toBe(0);
      expect(confirmed.stderr).not.toContain('not using');
      expect(redirect.requests.length).toBeGreaterThan(seen);

      // The repository changes its endpoint: held again.
      const other = await fake();
      writeFileSync(s.dotenv, `SWITCHBOARD_MODEL=ollama:fake-model\nOLLAMA_BASE_URL=${other.baseURL}\n`);
      const changed = await chat(s);
      expect(changed.stderr).toContain(`not using OLLAMA_BASE_URL=${other.baseURL} from ${s.dotenv}`);
      expect(other.requests).toHaveLength(0);
    },
  );
});
