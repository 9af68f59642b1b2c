import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { calculatorPath } from '../core/support/paths';
import { calculatorModel, startFakeProvider } from '../test-support/fake-providers';
import { hasTerminal, runOnTerminal, type OnTerminal } from '../test-support/cli-process';
import { tempDir } from '../test-support/processes';

/** `switchboard chat` on a real terminal (a pty from util-linux `script`): it prompts, and the answer decides. */

const main = join(import.meta.dirname, 'main.ts');

function onTerminal(args: string[], env: Record<string, string>, answers: Array<[RegExp, string]>): Promise<OnTerminal> {
  return runOnTerminal([main, ...args], { PATH: process.env.PATH ?? '', TERM: 'dumb', ...env }, answers);
}

describe.skipIf(!hasTerminal)(
  `switchboard chat on a terminal${hasTerminal ? '' : ' — skipped: /usr/bin/script (util-linux) is not installed, so there is no terminal to ask on'}`,
  () => {
    it('asks before the call; "y" runs it once, "n" denies it', async () => {
      const fake = await startFakeProvider('openai', calculatorModel());
      try {
        const home = tempDir();
        const config = join(home, 'mcp.json');
        writeFileSync(config, JSON.stringify({ mcpServers: { calculator: { command: process.execPath, args: [calculatorPath()] } } }));
        const env = { HOME: home, OPENAI_BASE_URL: fake.baseURL, OPENAI_API_KEY: 'sk-tty-test-0000', SWITCHBOARD_MODEL: 'openai:fake-model' };
        const yes = await onTerminal(['--config', config, 'chat', 'what is 2+3'], env, [[/Allow calculator › add \{"a":2,"b":3\}.*\[N\] deny: /, 'y\r']]);
        expect(yes.status, yes.output).toBe(0);
        expect(yes.output).toContain('The answer is 5');
        const no = await onTerminal(['--config', config, 'chat', 'what is 6*7'], env, [[/Allow calculator › multiply/, 'n\r']]);
        expect(no.status, no.output).toBe(0);
        expect(no.output).toContain('denied');
        expect(no.output).toContain('You denied the calculator');
      } finally {
        await fake.close();
      }
    });
  },
);
