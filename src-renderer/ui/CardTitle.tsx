import type { ReactNode } from 'react';

/** "server › tool", the title every tool card and form shares. */
export function CardTitle({ server, tool, children }: { server: string; tool: string; children?: ReactNode }) {
  return (
    <span className="card-title">
      <span className="muted">{server}</span>
      <span className="sep" aria-hidden="true">
        ›
      </span>
      <strong>{tool}</strong>
      {children}
    </span>
  );
}
