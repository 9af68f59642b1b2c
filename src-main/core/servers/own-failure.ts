/*
 * Whether a stdio server that exited while the era probe (`server/discover`) was unanswered clearly failed on its
 * own — a missing module, a syntax error, a program not found — rather than quitting on the probe, as some legacy
 * servers do. Only then is it not started a second time with the legacy handshake: that start would fail the same
 * way, and its stderr would repeat the first one's.
 */

/** Lines that say a program could not even start: its imports, its syntax, its own executable, its port. */
const startUpFailure =
  /\b(?:ImportError|ModuleNotFoundError|SyntaxError|ERR_MODULE_NOT_FOUND|EADDRINUSE)\b|Cannot find (?:module|package)|command not found|No such file or directory|Traceback \(most recent call last\)/;

/** True when `stderr` (what the server wrote before it exited) shows a start-up failure and never names the probe. */
export function failedOnItsOwn(stderr: string): boolean {
  return startUpFailure.test(stderr) && !/discover/i.test(stderr);
}
