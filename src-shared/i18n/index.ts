/**
 * Languages: the `en` and `zh-CN` catalogues behind i18next, shared by the UI and the CLI. No node:, no DOM.
 * Errors are put into words from a HostError's code and data (never from its English message): see localizeError.
 */
import i18next, { type i18n as I18n, type TFunction } from 'i18next';
import { en, type Catalogue } from './en';
import { zhCN } from './zh-CN';
import type { StatusReason } from '../contract/servers';
import type { InstallNote } from '../contract/install';

export type { Catalogue } from './en';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: Catalogue };
    returnNull: false;
  }
}

export const languages = ['en', 'zh-CN'] as const;
export type Language = (typeof languages)[number];
/** What a person can pick in Settings: a language, or the system's (OS / browser locale). */
export type LanguageSetting = Language | 'system';

export const catalogues: Record<Language, Catalogue> = { en, 'zh-CN': zhCN };

/** Each language's own name, shown in the picker in that language (a reader finds their own). */
export const languageNames: Record<Language, string> = { en: 'English', 'zh-CN': '简体中文' };

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (languages as readonly string[]).includes(value);
}

/**
 * The first of a person's preferred locales that we have a catalogue for: `zh`, `zh-CN`, `zh-Hans-SG`, `zh_TW.UTF-8`
 * → zh-CN (the one Chinese catalogue); `en-GB` → en. Nothing known → en. POSIX forms (`zh_CN.UTF-8`) are accepted.
 */
export function resolveLanguage(preferred: ReadonlyArray<string | undefined>): Language {
  for (const raw of preferred) {
    if (raw === undefined || raw === '') continue;
    const tag = raw.split('.')[0]?.split('@')[0]?.replace(/_/g, '-').toLowerCase() ?? '';
    if (tag === 'c' || tag === 'posix') continue;
    if (tag === 'zh' || tag.startsWith('zh-')) return 'zh-CN';
    if (tag === 'en' || tag.startsWith('en-')) return 'en';
  }
  return 'en';
}

/** A ready i18next instance (synchronous: the catalogues are bundled), in `language`. */
export function createI18n(language: Language, setup?: (instance: I18n) => void): I18n {
  const instance = i18next.createInstance();
  setup?.(instance);
  void instance.init({
    lng: language,
    fallbackLng: 'en',
    supportedLngs: [...languages],
    resources: { en: { translation: en }, 'zh-CN': { translation: zhCN } },
    initAsync: false,
    // React escapes what it renders, and the CLI prints plain text.
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  return instance;
}

export interface ErrorLike {
  code?: string;
  message: string;
  data?: Record<string, unknown>;
}

/** `data` fields whose value picks a more specific wording: `errors.<code>.<value>` (`how`, `why`: a StatusReason's). */
const selectorFields = ['status', 'reason', 'how', 'why'] as const;

function placeholders(text: string): string[] {
  return [...text.matchAll(/\{\{\s*([\w.-]+)\s*\}\}/g)].map((m) => m[1] ?? '');
}

/**
 * An error in the instance's language, from its code and data: the first of `errors.<code>.<data.status|reason>`,
 * `errors.<code>.position` (data has line and column), `errors.<code>.tool` (data has server and tool), `errors.<code>.server`, `errors.<code>.generic` whose placeholders
 * the data can fill (`{{message}}` is the host's own text, for the detail only it has, e.g. a server's answer).
 * In English, or for a code without a key, the host's message as it is (it is written in English).
 */
export function localizeError(instance: I18n, error: ErrorLike): string {
  const language = instance.resolvedLanguage ?? instance.language;
  if (language === 'en' || error.code === undefined) return error.message;
  const main = worded(instance, language, 'errors', error);
  if (main === undefined) return error.message;
  // `data.stderr`: a server's own last stderr lines the host's text quotes (kept as they are).
  const stderr = error.data?.stderr;
  return Array.isArray(stderr) && stderr.length > 0 && stderr.every((l) => typeof l === 'string') ? withLines(instance, main, stderr) : main;
}

function withLines(instance: I18n, text: string, lines: readonly string[]): string {
  return `${text}\n${instance.t('reasons.lastStderr')}\n${lines.join('\n')}`;
}

/**
 * Why a server is in its status (ServerView.error and .errorInfo) in the instance's language: worded from the
 * code and data like localizeError, from `errors.<code>` (a HostError code) or `reasons.<code>` (the supervisor's
 * own: exits, crash loops, timeouts, approval), then the server's stderr lines it quotes. In English, without a
 * reason, or for a code without a key: `text` as it is.
 */
export function localizeReason(instance: I18n, text: string, reason: StatusReason | undefined): string {
  const language = instance.resolvedLanguage ?? instance.language;
  if (language === 'en' || reason === undefined) return text;
  const error: ErrorLike = { code: reason.code, message: text, ...(reason.data !== undefined ? { data: reason.data } : {}) };
  const extra: Record<string, string> = reason.cause !== undefined ? { cause: localizeReason(instance, reason.cause.text, reason.cause) } : {};
  const main = worded(instance, language, 'errors', error, extra) ?? worded(instance, language, 'reasons', error, extra);
  if (main === undefined) return text;
  return reason.lines === undefined || reason.lines.length === 0 ? main : withLines(instance, main, reason.lines);
}

/** The sections `diagnostics.<section>.<code>` words: a sandbox, containment or ping reason. */
export type DiagnosticSection = 'containment' | 'sandbox' | 'ping';

/**
 * A sandbox, containment or ping reason (SandboxInfo.reason, ContainmentInfo.reason, ServerHealth.error) in the
 * instance's language, worded from `diagnostics.<section>.<info.code>` and its data like localizeReason; `text`
 * itself in English, without a code, or for a code (or data) the catalogue cannot word.
 */
export function localizeDiagnostic(instance: I18n, section: DiagnosticSection, text: string, info: StatusReason | undefined): string {
  const language = instance.resolvedLanguage ?? instance.language;
  if (language === 'en' || info === undefined || !/^[\w-]+$/.test(info.code)) return text;
  return (
    worded(instance, language, `diagnostics.${section}`, { code: info.code, message: text, ...(info.data !== undefined ? { data: info.data } : {}) }) ?? text
  );
}

/**
 * The first wording under `<section>.<code>` whose placeholders the data can fill: a variant picked by a selector
 * field, `position`, `tool`, `server`, `cause`, `generic`, or `<section>.<code>` itself when that is one string.
 */
function worded(instance: I18n, language: string, section: string, error: ErrorLike, extra: Record<string, string> = {}): string | undefined {
  const data = error.data ?? {};
  const vars: Record<string, string> = { message: error.message, ...extra };
  for (const [key, value] of Object.entries(data)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') vars[key] = String(value);
    else if (Array.isArray(value) && value.every((v) => typeof v === 'string')) vars[key] = value.join(', ');
  }
  const prefix = `${section}.${error.code ?? ''}`;
  const candidates: string[] = [];
  for (const field of selectorFields) {
    const value = data[field];
    if (typeof value === 'string' && /^[\w-]+$/.test(value)) candidates.push(`${prefix}.${value}`);
  }
  if (vars.line !== undefined && vars.column !== undefined) candidates.push(`${prefix}.position`);
  if (vars.server !== undefined && vars.tool !== undefined) candidates.push(`${prefix}.tool`);
  if (vars.server !== undefined) candidates.push(`${prefix}.server`);
  if (vars.cause !== undefined) candidates.push(`${prefix}.cause`);
  candidates.push(`${prefix}.generic`, prefix);
  for (const key of candidates) {
    const raw: unknown = instance.getResource(language, 'translation', key);
    if (typeof raw !== 'string') continue;
    if (!placeholders(raw).every((name) => vars[name] !== undefined)) continue;
    // A key built at run time: the catalogue test checks every code's `generic` exists in both languages.
    return (instance.t as unknown as (key: string, vars: Record<string, string>) => string)(key, vars);
  }
  return undefined;
}

/**
 * Where secrets are kept, when it is not the OS keychain, in the instance's language: in English the store's own
 * warning; otherwise a file-backed store's caveat naming its file (worded here, since the warning is English).
 * Undefined for the keychain.
 */
export function secretsCaveat(instance: I18n, store: { backing: string; warning?: string; file?: string }): string | undefined {
  if (store.backing === 'keychain') return undefined;
  const language = instance.resolvedLanguage ?? instance.language;
  if (store.warning !== undefined && (language === 'en' || store.backing !== 'file')) return store.warning;
  if (store.backing === 'file')
    return store.file !== undefined ? instance.t('secrets.fileBacked', { file: store.file }) : instance.t('secrets.fileBackedNoPath');
  return instance.t('secrets.notKeychain', { backing: store.backing });
}

/**
 * An install plan's note in the words of `t`: `bundle.note.<code>` filled from the note's data, a certificate's date
 * (YYYY-MM-DD from the core) worded by `date`. For the install dialog and the CLI alike.
 */
export function installNoteText(t: TFunction, note: InstallNote, date: (day: string) => string): string {
  // Every note code is a key of the catalogue (a compile error here if one is added without its wording).
  const code: keyof Catalogue['bundle']['note'] = note.code;
  const data = note.data.date !== undefined ? { ...note.data, date: date(note.data.date) } : note.data;
  // A key chosen at run time: i18next's types cannot match its placeholders to the note's data, which the core fills.
  return (t as unknown as (key: string, vars: Record<string, string>) => string)(`bundle.note.${code}`, data);
}

/** A date and time in the language's own order and words (Intl). */
export function formatDateTime(language: Language, value: number | string | Date, options?: Intl.DateTimeFormatOptions): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return new Intl.DateTimeFormat(language, options ?? { dateStyle: 'medium', timeStyle: 'medium' }).format(date);
}

/** A number with the language's grouping and decimal marks (Intl). */
export function formatNumber(language: Language, value: number, options?: Intl.NumberFormatOptions): string {
  return new Intl.NumberFormat(language, options).format(value);
}

export type { I18n, TFunction };
