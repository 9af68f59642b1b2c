import { useState } from 'react';
import { useT } from '../i18n';

const LONG = 180;

/** A server's error, clamped to a few lines when long (e.g. a PATH listing), with a toggle to read it all. */
export function ErrorReason({ text }: { text: string }) {
  const [open, setOpen] = useState(false);
  const t = useT();
  const long = text.length > LONG;
  return (
    <div className="server-error" role="status">
      <p className={long && !open ? 'clamped' : undefined} data-testid="server-error" title={long && !open ? text : undefined}>
        {text}
      </p>
      {long && (
        <button type="button" className="link-button" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
          {open ? t('common.showLess') : t('common.showAll')}
        </button>
      )}
    </div>
  );
}
