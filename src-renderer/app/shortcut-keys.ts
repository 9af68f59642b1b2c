import type { useT } from '../i18n';

type T = ReturnType<typeof useT>;

/** Apple keyboards say ⌘ where others say Ctrl (the handler accepts either). */
export function isApple(): boolean {
  return typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.userAgent);
}

export function filterShortcutLabel(t: T): string {
  return isApple() ? t('shortcuts.keyFilterMac') : t('shortcuts.keyFilter');
}
