import { useT } from '../../i18n';

/** Lines the host itself adds to a server's stderr tail (a probe retry, a restart) start with this. */
const hostNote = '[switchboard]';

/** The lines the server itself wrote (the host's own notes left out), which is what the summary counts. */
export function serverLineCount(lines: readonly string[]): number {
  return lines.filter((line) => !line.startsWith(hostNote)).length;
}

/**
 * Whether the tail tells more than `reason`, the error text shown above it (which quotes the server's last stderr
 * lines): a line of the server's own that the reason does not quote. The host's notes alone do not count, so a
 * crash that wrote one line shows that line once, in the reason, and no tail repeating it.
 */
export function tailAddsToReason(lines: readonly string[], reason: string | undefined): boolean {
  if (lines.length === 0) return false;
  if (reason === undefined) return true;
  const quoted = new Set(reason.split('\n').map((line) => line.trim()));
  return lines.some((line) => !line.startsWith(hostNote) && !quoted.has(line.trim()));
}

/** The server's stderr tail, collapsed; left out when `reason` (the error shown above it) already quotes all of it. */
export function StderrTail({ lines, reason }: { lines: string[]; reason?: string | undefined }) {
  const t = useT();
  if (!tailAddsToReason(lines, reason)) return null;
  return (
    <details className="stderr" data-testid="server-stderr">
      <summary>
        stderr <span className="muted">{t('tools.stderrLines', { count: serverLineCount(lines) })}</span>
      </summary>
      <pre>
        {lines.map((line, i) => (
          <span key={i} className={line.startsWith(hostNote) ? 'muted' : undefined}>
            {line}
            {'\n'}
          </span>
        ))}
      </pre>
    </details>
  );
}
