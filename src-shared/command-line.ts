/**
 * Splits a command line the way a POSIX shell splits words, without running anything: whitespace separates words,
 * '…' keeps everything literally, "…" keeps everything but lets a backslash escape " \ $ `, and outside quotes a
 * backslash escapes whitespace, a quote or a backslash; a backslash at the end of a line joins it to the next (a
 * command copied from docs over several lines). A backslash before any other character is kept, so a pasted Windows
 * path (C:\tools\server.exe) survives. Variables, globs, pipes and `&&` are not interpreted: they stay text.
 *
 * Returns undefined for a line with an unclosed quote (it is not a command line yet).
 */
export function splitCommandLine(line: string): string[] | undefined {
  const words: string[] = [];
  let word = '';
  // A word exists once anything (even an empty pair of quotes) was seen since the last whitespace.
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < line.length; i += 1) {
    const ch = line.charAt(i);
    const next = line.charAt(i + 1);
    if (quote !== "'" && ch === '\\' && (next === '\n' || (next === '\r' && line.charAt(i + 2) === '\n'))) {
      i += next === '\r' ? 2 : 1;
      continue;
    }
    if (quote === "'") {
      if (ch === "'") quote = undefined;
      else word += ch;
      continue;
    }
    if (quote === '"') {
      if (ch === '"') quote = undefined;
      else if (ch === '\\' && (next === '"' || next === '\\' || next === '$' || next === '`')) {
        word += next;
        i += 1;
      } else word += ch;
      continue;
    }
    if (ch === "'" || ch === '"') {
      quote = ch;
      inWord = true;
    } else if (ch === '\\' && next !== '' && /[\s'"\\]/.test(next)) {
      word += next;
      inWord = true;
      i += 1;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += ch;
      inWord = true;
    }
  }
  if (quote !== undefined) return undefined;
  if (inWord) words.push(word);
  return words;
}
