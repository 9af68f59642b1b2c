import { useEffect, useId, useRef, type KeyboardEvent as ReactKeyboardEvent, type ReactNode } from 'react';
import './dialog.css';
import { useT } from '../i18n';

/** What Tab may land on inside a dialog. */
const focusable =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"]), summary';

/** The dialogs open now, innermost last: only it answers Escape and keeps focus. */
const openDialogs: HTMLElement[] = [];

function tabbable(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(focusable)].filter((el) => !el.closest('[hidden], [inert]') && el.getClientRects().length > 0);
}

export interface DialogProps {
  title: string;
  onClose(): void;
  children: ReactNode;
  testId?: string;
  wide?: boolean;
  /** A click on the backdrop closes it (off for forms whose typing would be lost). */
  closeOnBackdrop?: boolean;
}

/**
 * The app's one modal dialog: labelled by its title; focus moves in (the first field or button), Tab and
 * Shift+Tab stay inside, Escape closes, and focus goes back to what had it (the button that opened it).
 */
export function Dialog({ title, onClose, children, testId, wide = false, closeOnBackdrop = false }: DialogProps) {
  const titleId = useId();
  const t = useT();
  const ref = useRef<HTMLDivElement>(null);
  const close = useRef(onClose);
  close.current = onClose;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : undefined;
    openDialogs.push(dialog);
    const body = dialog.querySelector<HTMLElement>('.ui-dialog-body');
    const first = (body ? tabbable(body) : [])[0];
    (first ?? dialog).focus();
    const onKey = (event: KeyboardEvent): void => {
      if (event.key === 'Escape' && openDialogs[openDialogs.length - 1] === dialog && !event.defaultPrevented) {
        event.preventDefault();
        close.current();
      }
    };
    // Focus that leaves the innermost dialog (a click outside, a script) is brought back.
    const onFocusIn = (event: FocusEvent): void => {
      if (openDialogs[openDialogs.length - 1] !== dialog) return;
      if (event.target instanceof Node && !dialog.contains(event.target)) (tabbable(dialog)[0] ?? dialog).focus();
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('focusin', onFocusIn);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('focusin', onFocusIn);
      const at = openDialogs.indexOf(dialog);
      if (at >= 0) openDialogs.splice(at, 1);
      if (previous?.isConnected) previous.focus();
    };
  }, []);

  const onKeyDown = (event: ReactKeyboardEvent<HTMLDivElement>): void => {
    if (event.key !== 'Tab' || !ref.current) return;
    const items = tabbable(ref.current);
    const firstItem = items[0];
    const lastItem = items[items.length - 1];
    if (!firstItem || !lastItem) {
      event.preventDefault();
      return;
    }
    const active = document.activeElement;
    if (event.shiftKey && (active === firstItem || active === ref.current)) {
      event.preventDefault();
      lastItem.focus();
    } else if (!event.shiftKey && active === lastItem) {
      event.preventDefault();
      firstItem.focus();
    }
  };

  return (
    <div className="ui-dialog-backdrop" onMouseDown={(e) => closeOnBackdrop && e.target === e.currentTarget && onClose()}>
      <div
        ref={ref}
        className={`ui-dialog${wide ? ' ui-dialog-wide' : ''}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        data-testid={testId}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        <header className="ui-dialog-head">
          <h2 id={titleId}>{title}</h2>
          <button type="button" className="btn btn-ghost btn-small ui-dialog-close" aria-label={t('dialog.close')} data-testid="dialog-close" onClick={onClose}>
            ✕
          </button>
        </header>
        <div className="ui-dialog-body">{children}</div>
      </div>
    </div>
  );
}
