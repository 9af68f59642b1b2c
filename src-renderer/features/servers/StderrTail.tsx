import { useT } from '../../i18n';

/** Lines the host itself adds to a server's stderr tail (a probe retry, a restart) start with this. */
const hostNote = '[switchboard]';

/** The lines the server itself wrote (the host's own notes left out), which is what the summary counts. */
export function serverLineCount(lines: readonly string[]): number {
  return lines.filter((line) => !line.startsWith(hostNote)).length;
}

export function StderrTail({ lines }: { lines: string[] }) {
  const t = useT();
  if (lines.length === 0) return null;
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
