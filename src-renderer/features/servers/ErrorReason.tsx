import { useState } from 'react';
import type { StatusReason } from '../../../src-shared/host-api';
import { reasonText, useT } from '../../i18n';

const LONG = 180;

/**
 * A server's error, clamped to a few lines when long (e.g. a PATH listing), with a toggle to read it all. In the UI's
 * language from `reason` (its code and data) when given; else, and in English, `text` as the host wrote it.
 */
export function ErrorReason({ text: english, reason }: { text: string; reason?: StatusReason | undefined }) {
  const [open, setOpen] = useState(false);
  const t = useT();
  const text = reasonText(english, reason);
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
