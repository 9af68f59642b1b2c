import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { disposeHarnesses, harness } from '../test-support/chat-harness';
import { calculatorModel } from '../test-support/fake-providers';
import { parseArgs } from './args';
import { chatCommand } from './commands/chat-run';

/*
 * `switchboard chat` without a terminal, on a host whose request queue has no one to answer (the approval is
 * declined by the queue at once): the command prints the denial, saying why, and the answer still streams.
 */

afterEach(disposeHarnesses);

function sink(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (c: Buffer) => (text += c.toString()));
  return { stream, text: () => text };
}

describe('switchboard chat on a non-interactive queue', () => {
  it('denies as before, printing why, and the answer streams', async () => {
    const h = await harness('openai', calculatorModel(), { answerApprovals: false, interactive: false, noAnswererReason: 'not a terminal' });
    const stdout = sink();
    const stderr = sink();
    const code = await chatCommand(h.host, parseArgs(['chat', 'what is 2+3']), { stdin: new PassThrough(), stdout: stdout.stream, stderr: stderr.stream });
    expect(code).toBe(0);
    expect(stderr.text()).toContain('calculator › add: denied — there is no terminal to ask on (use --approve all, readonly or none)');
    expect(stdout.text()).toBe('You denied the calculator, so I cannot compute that.\n');
    const started = h.events.find((e) => e.type === 'run-started');
    expect(started && h.tools(started.runId)).toMatchObject([{ status: 'denied', decision: 'deny' }]);
    expect(await h.host.api['requests:list']()).toEqual([]);
  });
});
