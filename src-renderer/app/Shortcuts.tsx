import { useEffect } from 'react';
import type { AppStore } from '../store';
import { useApp, useAppStore } from '../store/useApp';
import { Dialog } from '../ui/Dialog';
import { useT } from '../i18n';
import { serverFilterId } from '../features/servers/ServerList';
import { filterShortcutLabel } from './shortcut-keys';
import './shortcuts.css';

const composerSelector = '[data-testid="chat-input"]';

/** Focuses what a selector finds once it is on screen (a screen change renders it a frame later). */
function focusWhenShown(find: () => HTMLElement | null, tries = 20): void {
  const element = find();
  if (element && element.getClientRects().length > 0) {
    element.focus();
    return;
  }
  if (tries > 0) requestAnimationFrame(() => focusWhenShown(find, tries - 1));
}

/** The chat screen with the conversation showing, its box focused. */
export function focusComposer(store: AppStore): void {
  const s = store.getState();
  if (s.serverPage) s.closeServerPage();
  if (s.screen !== 'chat') s.setScreen('chat');
  focusWhenShown(() => document.querySelector<HTMLElement>(composerSelector));
}

/** The sidebar's filter, on the chat screen, with the sidebar unfolded. */
export function focusServerFilter(store: AppStore): void {
  const s = store.getState();
  if (s.screen !== 'chat') s.setScreen('chat');
  if (s.sidebarCollapsed) s.toggleSidebar();
  focusWhenShown(() => document.getElementById(serverFilterId));
}

/** The visible main landmark (the chat, a server's page or a screen), focused without joining the Tab order. */
function focusMain(): void {
  focusWhenShown(() => {
    const main = [...document.querySelectorAll<HTMLElement>('main')].find((m) => m.getClientRects().length > 0) ?? null;
    if (main && !main.hasAttribute('tabindex')) main.setAttribute('tabindex', '-1');
    return main;
  });
}

/** Typing goes to this element: a single-key shortcut must leave it alone. */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) return !['button', 'checkbox', 'radio', 'submit', 'reset', 'range', 'color', 'file'].includes(target.type);
  return false;
}

const dialogOpen = (): boolean => document.querySelector('[role="dialog"][aria-modal="true"]') !== null;

/**
 * The app's keyboard shortcuts: `/` the chat box, Ctrl+K (⌘K) the servers filter, `?` this list, and Esc closes
 * the History panel or a server's page when nothing nearer used it (dialogs, lists and forms answer Esc first).
 */
export function useShortcuts(): void {
  const store = useAppStore();
  useEffect(() => {
    const onKey = (event: KeyboardEvent): void => {
      if (event.defaultPrevented || event.isComposing) return;
      const s = store.getState();
      if ((event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === 'k') {
        if (dialogOpen()) return;
        event.preventDefault();
        focusServerFilter(store);
        return;
      }
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.key === 'Escape') {
        // Escape from a field that still holds text is the field's (a search box clears).
        if (dialogOpen() || (isTyping(event.target) && 'value' in (event.target as HTMLInputElement) && (event.target as HTMLInputElement).value !== ''))
          return;
        if (s.historyOpen) {
          event.preventDefault();
          s.toggleHistory();
          focusWhenShown(() => document.querySelector<HTMLElement>('[data-testid="history-toggle"]'));
        } else if (s.screen === 'chat' && s.serverPage) {
          event.preventDefault();
          const server = s.serverPage.server;
          s.closeServerPage();
          focusWhenShown(() =>
            document.querySelector<HTMLElement>(`[data-testid="server-row"][data-server="${CSS.escape(server)}"] [data-testid="server-open-page"]`),
          );
        }
        return;
      }
      if (isTyping(event.target) || dialogOpen()) return;
      if (event.key === '/') {
        event.preventDefault();
        focusComposer(store);
      } else if (event.key === '?') {
        event.preventDefault();
        s.setShortcutsOpen(true);
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [store]);
}

/** The first stops of Tab: past the header and the sidebar, to the chat box or to the screen's content. */
export function SkipLinks() {
  const store = useAppStore();
  const t = useT();
  return (
    <div className="skip-links">
      <button type="button" className="skip-link" data-testid="skip-to-chat" onClick={() => focusComposer(store)}>
        {t('shortcuts.skipToChat')}
      </button>
      <button type="button" className="skip-link" data-testid="skip-to-main" onClick={focusMain}>
        {t('shortcuts.skipToMain')}
      </button>
    </div>
  );
}

/** The header's "?" button: the shortcuts, where a person can find them. */
export function ShortcutsButton() {
  const setOpen = useApp((s) => s.setShortcutsOpen);
  const t = useT();
  return (
    <button
      type="button"
      className="btn btn-ghost btn-small shortcuts-button"
      data-testid="shortcuts-open"
      aria-label={t('shortcuts.open')}
      aria-keyshortcuts="Shift+?"
      title={`${t('shortcuts.open')} (?)`}
      onClick={() => setOpen(true)}
    >
      ?
    </button>
  );
}

export function ShortcutsDialog() {
  const open = useApp((s) => s.shortcutsOpen);
  const setOpen = useApp((s) => s.setShortcutsOpen);
  const t = useT();
  if (!open) return null;
  const rows: [string, string][] = [
    [t('shortcuts.keyComposer'), t('shortcuts.composer')],
    [filterShortcutLabel(t), t('shortcuts.filter')],
    [t('shortcuts.keyHelp'), t('shortcuts.help')],
    [t('shortcuts.keyEscape'), t('shortcuts.escape')],
    [t('shortcuts.keyTab'), t('shortcuts.tab')],
  ];
  return (
    <Dialog title={t('shortcuts.title')} onClose={() => setOpen(false)} testId="shortcuts-dialog" closeOnBackdrop>
      <dl className="shortcuts-list">
        {rows.map(([key, what]) => (
          <div key={key} className="shortcuts-row">
            <dt>
              <kbd>{key}</kbd>
            </dt>
            <dd>{what}</dd>
          </div>
        ))}
      </dl>
    </Dialog>
  );
}
