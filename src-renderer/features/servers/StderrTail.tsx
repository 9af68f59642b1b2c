import { useT } from '../../i18n';

export function StderrTail({ lines }: { lines: string[] }) {
  const t = useT();
  if (lines.length === 0) return null;
  return (
    <details className="stderr" data-testid="server-stderr">
      <summary>
        stderr <span className="muted">{t('tools.stderrLines', { count: lines.length })}</span>
      </summary>
      <pre>{lines.join('\n')}</pre>
    </details>
  );
}
