/**
 * Words for the `diagnostics.*` reasons (containment, sandbox, ping), from a reason's code and data, for the UI and
 * the CLI alike. No node:, no DOM. In English the host's own text is shown as it is (the catalogue keeps its words).
 */
import type { StatusReason } from '../contract/servers';

/** A translate function given a key built at run time (`t` of i18next, or the CLI's cliT). */
export type DynamicTranslate = (key: string, vars: Record<string, string>) => string;

export type DiagnosticSection = 'containment' | 'sandbox' | 'ping';

/**
 * `text` in `language`, worded from `diagnostics.<section>.<info.code>` and `info.data`; `text` itself in English,
 * without a code, or for a code (or data) the catalogue cannot word.
 */
export function diagnosticText(t: DynamicTranslate, language: string, section: DiagnosticSection, text: string, info: StatusReason | undefined): string {
  if (language === 'en' || info === undefined || !/^[\w-]+$/.test(info.code)) return text;
  const vars: Record<string, string> = {};
  for (const [name, value] of Object.entries(info.data ?? {})) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') vars[name] = String(value);
    else if (Array.isArray(value)) vars[name] = value.join(', ');
  }
  const key = `diagnostics.${section}.${info.code}`;
  const worded = t(key, vars);
  // i18next answers the key itself for a missing one, and leaves a placeholder the data cannot fill.
  return worded === key || worded === '' || /\{\{/.test(worded) ? text : worded;
}
