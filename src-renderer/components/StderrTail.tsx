export function StderrTail({ lines }: { lines: string[] }) {
  if (lines.length === 0) return null;
  return (
    <details className="stderr" data-testid="server-stderr">
      <summary>
        stderr <span className="muted">({lines.length} {lines.length === 1 ? 'line' : 'lines'})</span>
      </summary>
      <pre>{lines.join('\n')}</pre>
    </details>
  );
}
