import type { ConsentSubject, LaunchSubject } from '../../../src-shared/host-api';

/** One argument as a POSIX shell would need it quoted, so the line shown is exactly what runs (spaces and quotes visible). */
export function quoteArg(arg: string): string {
  return arg !== '' && /^[A-Za-z0-9_@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** The launch as one command line (each argument quoted where it needs it). */
export function commandLine(subject: Pick<LaunchSubject, 'command' | 'args'>): string {
  return [subject.command, ...subject.args].map(quoteArg).join(' ');
}

/** The first line of a consent card: the command line of a stdio entry, the URL of a remote one. */
export function subjectLine(subject: ConsentSubject): string {
  return 'command' in subject ? commandLine(subject) : subject.url;
}

/** `API_TOKEN ← ${secret:github.TOKEN}`: where a value comes from, by name (the reference text, never its value). */
export function referenceLines(references: Readonly<Record<string, readonly string[]>> | undefined): string[] {
  return Object.entries(references ?? {}).map(([name, refs]) => `${name} ← ${refs.join(' ')}`);
}
