/**
 * The UI's language: one i18next instance for react-i18next, in the language picked in Settings (remembered in
 * localStorage), else the browser's / OS's (navigator.languages; Electron passes the system locale). Importing this
 * module sets it up, so components only `import { useT } from '../i18n'`.
 */
import { useSyncExternalStore } from 'react';
import { initReactI18next, useTranslation } from 'react-i18next';
import {
  createI18n,
  formatDateTime,
  formatNumber,
  isLanguage,
  localizeError,
  localizeReason,
  resolveLanguage,
  secretsCaveat,
  type ErrorLike,
  type Language,
  type LanguageSetting,
} from '../../src-shared/i18n';
import type { StatusReason } from '../../src-shared/host-api';
import type { ProvidersView } from '../../src-shared/contract/chat';

const storageKey = 'switchboard.language';

export function systemLanguage(): Language {
  const nav = typeof navigator === 'undefined' ? undefined : navigator;
  return resolveLanguage(nav ? [...(nav.languages ?? []), nav.language] : []);
}

export function rememberedLanguage(): LanguageSetting {
  try {
    const value = typeof localStorage === 'undefined' ? null : localStorage.getItem(storageKey);
    return isLanguage(value) ? value : 'system';
  } catch {
    return 'system';
  }
}

function effective(setting: LanguageSetting): Language {
  return setting === 'system' ? systemLanguage() : setting;
}

export const i18n = createI18n(effective(rememberedLanguage()), (instance) => {
  instance.use(initReactI18next);
});

function markDocument(language: Language): void {
  if (typeof document !== 'undefined') document.documentElement.lang = language;
}
markDocument(effective(rememberedLanguage()));

const listeners = new Set<() => void>();
let setting: LanguageSetting = rememberedLanguage();

/** Switches the UI's language now and remembers the choice ('system': follow the OS / browser again). */
export function setLanguage(next: LanguageSetting): void {
  setting = next;
  try {
    if (next === 'system') localStorage.removeItem(storageKey);
    else localStorage.setItem(storageKey, next);
  } catch {
    // storage may be unavailable (a locked-down profile): the choice lasts until the page is reloaded
  }
  const language = effective(next);
  markDocument(language);
  void i18n.changeLanguage(language);
  for (const listener of listeners) listener();
}

/** The setting (for the picker), re-rendering when it changes. */
export function useLanguageSetting(): LanguageSetting {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => setting,
  );
}

export function currentLanguage(): Language {
  const language = i18n.resolvedLanguage ?? i18n.language;
  return isLanguage(language) ? language : 'en';
}

/** `t` for a component; re-renders it when the language changes. */
export function useT() {
  return useTranslation().t;
}

/** An error in the UI's language, from its code and data (see localizeError); English keeps the host's message. */
export function errorText(error: ErrorLike): string {
  return localizeError(i18n, error);
}

/**
 * A config problem without its place (the editor shows it at its line): worded from its reason code and data
 * (HostError data.detailInfo / ConfigProblem.info: `configDetail.reason.<reason>`); in English, or for a reason
 * without a wording, the host's `detail` as it is.
 */
export function configDetailText(detail: string, info: unknown): string {
  const language = i18n.resolvedLanguage ?? i18n.language;
  if (language === 'en' || typeof info !== 'object' || info === null) return detail;
  const vars: Record<string, string> = {};
  for (const [key, value] of Object.entries(info as Record<string, unknown>))
    if (typeof value === 'string' || typeof value === 'number') vars[key] = String(value);
  const key = `configDetail.reason.${vars.reason ?? ''}`;
  if (vars.reason === undefined || !/^[\w-]+$/.test(vars.reason) || typeof i18n.getResource(language, 'translation', key) !== 'string') return detail;
  // A key built at run time from the host's reason code (checked above to have a wording).
  return (i18n.t as unknown as (key: string, vars: Record<string, string>) => string)(key, vars);
}

/** Why a server is in its status (ServerView.error and .errorInfo) in the UI's language (see localizeReason). */
export function reasonText(text: string, reason: StatusReason | undefined): string {
  return localizeReason(i18n, text, reason);
}

/** Where secrets are kept, when not in the OS keychain, in the UI's language (see src-shared/i18n's secretsCaveat). */
export function secretsCaveatText(store: { backing: string; warning?: string; file?: string }): string | undefined {
  return secretsCaveat(i18n, store);
}

/**
 * Why the chat cannot talk to a model yet (ProvidersView.hint) in the UI's language: from whether a model is set at
 * all (none: no provider is configured); English keeps the host's own text (which also says why a set model fails).
 */
export function providerHint(providers: ProvidersView | undefined): string | undefined {
  const hint = providers?.hint;
  if (hint === undefined || currentLanguage() === 'en') return hint;
  const how = i18n.t('chatLog.noProviderHint');
  return providers?.model === undefined ? how : `${i18n.t('chatLog.modelUnusable', { model: providers.model })} ${how}`;
}

/** A date and time in the UI's language. */
export function formatWhen(value: number | string | Date, options?: Intl.DateTimeFormatOptions): string {
  return formatDateTime(currentLanguage(), value, options);
}

/** A number in the UI's language. */
export function formatCount(value: number, options?: Intl.NumberFormatOptions): string {
  return formatNumber(currentLanguage(), value, options);
}
