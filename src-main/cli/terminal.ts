import { createInterface, type Interface } from 'node:readline/promises';
import { visibleControls } from '../../src-shared/hidden-text';
import type { Disposable } from '../../src-shared/lifecycle';

/** The streams a CLI face asks on: questions and everything around them go to stderr, so stdout stays the result. */
export interface TerminalIo {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
}

/** Whether a person is there to answer: both stdin and stderr are a terminal. */
export function canAskOn(io: TerminalIo): boolean {
  return io.stdin.isTTY === true && io.stderr.isTTY === true;
}

/**
 * One line prompt on a terminal, shared by everything that asks (the chat's tool approvals, the request queue's
 * answerer): one readline on stdin, so typed keys are echoed once and each answer reaches the question it is for.
 * Questions run one at a time, in the order they were asked. Ctrl+C at a prompt interrupts the CLI as it would
 * anywhere else (raw mode would otherwise swallow it); Ctrl+D ends the input, and every question after that gets
 * no answer (`undefined`), which the askers treat as decline.
 */
export class Terminal implements Disposable {
  private readline: Interface | undefined;
  private turn: Promise<unknown> = Promise.resolve();
  private ended = false;

  constructor(
    private readonly io: TerminalIo,
    private readonly onInterrupt: () => void = () => void process.kill(process.pid, 'SIGINT'),
  ) {}

  get canAsk(): boolean {
    return !this.ended && canAskOn(this.io);
  }

  /** A line on stderr, its control characters made visible (it carries servers' text: see output.ts). */
  say(line: string): void {
    this.io.stderr.write(`${visibleControls(line)}\n`);
  }

  /** The person's line (trimmed), or undefined when the signal aborted it, the input ended, or there is no terminal. */
  ask(question: string, signal?: AbortSignal): Promise<string | undefined> {
    const next = this.turn.then(() => this.askNow(question, signal));
    this.turn = next.catch(() => undefined);
    return next;
  }

  private askNow(question: string, signal?: AbortSignal): Promise<string | undefined> {
    if (!this.canAsk || signal?.aborted) return Promise.resolve(undefined);
    const readline = this.open();
    return new Promise<string | undefined>((resolve) => {
      const finish = (answer: string | undefined): void => {
        readline.off('close', onClose);
        resolve(answer);
      };
      const onClose = (): void => finish(undefined);
      readline.once('close', onClose);
      readline.question(visibleControls(question), signal ? { signal } : {}).then(
        (answer) => finish(answer.trim()),
        () => {
          // Aborted (the request was answered elsewhere, timed out or withdrawn): end the half-written prompt line.
          if (!this.ended) this.io.stderr.write('\n');
          finish(undefined);
        },
      );
    });
  }

  private open(): Interface {
    if (this.readline) return this.readline;
    const readline = createInterface({ input: this.io.stdin, output: this.io.stderr });
    readline.on('SIGINT', this.onInterrupt);
    readline.once('close', () => {
      if (this.readline === readline) {
        this.readline = undefined;
        this.ended = true;
      }
    });
    this.readline = readline;
    return readline;
  }

  /** Gives the terminal back (cooked mode, stdin released). Idempotent; a later question opens it again. */
  dispose(): void {
    const readline = this.readline;
    this.readline = undefined;
    readline?.close();
  }
}

const terminals = new WeakMap<object, Terminal>();

/** The one Terminal of these streams (the chat's approvals and the queue's answerer share it). */
export function terminalFor(io: TerminalIo): Terminal {
  let terminal = terminals.get(io.stdin);
  if (!terminal) {
    terminal = new Terminal(io);
    terminals.set(io.stdin, terminal);
  }
  return terminal;
}
