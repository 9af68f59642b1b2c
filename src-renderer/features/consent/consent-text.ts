import type { LaunchSubject } from '../../../src-shared/host-api';

/** One argument as a POSIX shell would need it quoted, so the line shown is exactly what runs (spaces and quotes visible). */
export function quoteArg(arg: string): string {
  return arg !== '' && /^[A-Za-z0-9_@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** The launch as one command line (each argument quoted where it needs it). */
export function commandLine(subject: Pick<LaunchSubject, 'command' | 'args'>): string {
  return [subject.command, ...subject.args].map(quoteArg).join(' ');
}
