import { useState } from 'react';

const LONG = 180;

/** A server's error, clamped to a few lines when long (e.g. a PATH listing), with a toggle to read it all. */
export function ErrorReason({ text }: { text: string }) {
  const [open, setOpen] = useState(false);
  const long = text.length > LONG;
  return (
    <div className="server-error" role="status">
      <p className={long && !open ? 'clamped' : undefined} data-testid="server-error" title={long && !open ? text : undefined}>
        {text}
      </p>
      {long && (
        <button type="button" className="link-button" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
          {open ? 'Show less' : 'Show all'}
        </button>
      )}
    </div>
  );
}
