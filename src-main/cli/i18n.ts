// The CLI's language: SWITCHBOARD_LANG (en | zh-CN), else the POSIX locale (LC_ALL, LC_MESSAGES, LANG); English when
// none names a language we have. Help, usage errors and error lines go through it; --json output never does.
import type { ServerStatus, StatusReason } from '../../src-shared/contract/servers';
import {
  createI18n,
  localizeDiagnostic,
  secretsCaveat as sharedSecretsCaveat,
  type DiagnosticSection,
  formatDateTime,
  formatNumber,
  localizeError,
  localizeReason,
  resolveLanguage,
  type ErrorLike,
  type I18n,
  type Language,
} from '../../src-shared/i18n';

export function cliLanguage(env: NodeJS.ProcessEnv = process.env): Language {
  return resolveLanguage([env.SWITCHBOARD_LANG, env.LC_ALL, env.LC_MESSAGES, env.LANG]);
}

// Made on first use: `--help` in English never needs it (it prints args.ts's usage as it is).
let made: I18n | undefined;
function instance(): I18n {
  made ??= createI18n(cliLanguage());
  return made;
}

/** The CLI's translate function (keys are checked against the catalogue at compile time). */
export const cliT = ((...args: unknown[]) => (instance().t as unknown as (...a: unknown[]) => string)(...args)) as unknown as I18n['t'];

/** A number in the CLI's language, grouped only from five digits on (`1234 ms` reads better than `1,234 ms`). */
export function cliNumber(value: number): string {
  return formatNumber(cliLanguage(), value, { useGrouping: 'min2' });
}

/** A calendar date (`2027-01-31`, as the host gives one) in the CLI's language, e.g. 2027年1月31日; else as it is. */
export function cliDate(value: string): string {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) ? formatDateTime(cliLanguage(), `${value}T00:00:00Z`, { dateStyle: 'long', timeZone: 'UTC' }) : value;
}

/** A server's status as a table or line shows it (--json keeps the bare value). */
export function statusWord(status: ServerStatus | 'disabled'): string {
  return cliT(`cliOut.status.${status}`);
}

/** The --help text in the CLI's language (English: args.ts's own `usage`, passed through unchanged). */
export function localizedUsage(usage: string): string {
  if (cliLanguage() === 'en') return usage;
  const text = cliT('cli.usage', { usage });
  // A command or flag added to args.ts before its translation: the English help follows, so none goes unnamed.
  return usageNames(usage).every((name) => namedIn(text, name)) ? text : `${text}\n\n${cliT('cli.usageIncomplete')}\n\n${usage}`;
}

/** The commands (`  list …`) and flags (`--json`) a usage text names. */
export function usageNames(usage: string): string[] {
  const commands = [...usage.matchAll(/^ {2}([a-z][\w-]*)/gm)].map((m) => m[1] ?? '');
  const flags = [...usage.matchAll(/--[a-z][\w-]*/g)].map((m) => m[0]);
  return [...new Set([...commands, ...flags])];
}

/** Whether a help text names a command (at the start of one of its lines) or a flag. */
export function namedIn(text: string, name: string): boolean {
  return name.startsWith('--') ? text.includes(name) : new RegExp(`^ {2}${name}\\b`, 'm').test(text);
}

/** An error line's text in the CLI's language, from the error's code and data (English: its message). */
export function cliErrorText(error: ErrorLike): string {
  return localizeError(instance(), error);
}

/** Why a server is in its status (ServerView.error and .errorInfo) in the CLI's language (English: the host's text). */
export function cliReason(text: string, reason: StatusReason | undefined): string {
  return localizeReason(instance(), text, reason);
}

/** Any thrown error's text for an error line: a host error (code + message) in the CLI's language, else its message. */
export function errorLine(error: unknown): string {
  if (typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string') {
    const { code, message, data } = error as { code?: unknown; message: string; data?: unknown };
    const structured = typeof data === 'object' && data !== null && !Array.isArray(data) ? { data: data as Record<string, unknown> } : {};
    return typeof code === 'string' && /^[a-z-]+$/.test(code) ? localizeError(instance(), { code, message, ...structured }) : message;
  }
  return String(error);
}

/** The secret store's caveat in the CLI's language (src-shared/i18n's secretsCaveat; `location` is the store's file). */
export function secretsCaveat(store: { backing: string; warning?: string; location?: string; file?: string }): string | undefined {
  const file = store.file ?? store.location;
  return sharedSecretsCaveat(instance(), {
    backing: store.backing,
    ...(store.warning !== undefined ? { warning: store.warning } : {}),
    ...(file !== undefined ? { file } : {}),
  });
}

/** A sandbox, containment or ping reason in the CLI's language, from its code and data (the host's English as it is). */
export function cliDiagnostic(section: DiagnosticSection, text: string, info: StatusReason | undefined): string {
  return localizeDiagnostic(instance(), section, text, info);
}
