import { visibleControls } from './output';

/*
 * What import and secret read from stdin: a plain line each, without a readline (terminal.ts's Terminal is for
 * commands that ask while servers may ask too; these ask before, or instead of, anything else).
 */

/** The next line typed (trimmed), after `question` on stderr. */
export function ask(question: string): Promise<string> {
  return new Promise((resolve) => {
    process.stderr.write(visibleControls(question));
    process.stdin.resume();
    process.stdin.setEncoding('utf8');
    process.stdin.once('data', (data: string) => {
      process.stdin.pause();
      resolve(data.trim());
    });
  });
}

/** Everything piped to stdin; on a terminal, the line typed after `question`. */
export async function readStdin(question: string): Promise<string> {
  if (process.stdin.isTTY) return ask(question);
  let text = '';
  process.stdin.setEncoding('utf8');
  for await (const chunk of process.stdin) text += String(chunk);
  return text;
}
