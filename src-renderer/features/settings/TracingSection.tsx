import { useEffect, useState, type FormEvent } from 'react';
import type { TelemetrySettings } from '../../../src-shared/host-api';
import { useApp } from '../../store/useApp';
import { useT } from '../../i18n';

/** `Name: value` lines as headers; the number (1-based) of the first line that is not one. */
function parseHeaders(text: string): { headers: Record<string, string> } | { badLine: number } {
  const headers: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] ?? '').trim();
    if (line === '') continue;
    const colon = line.indexOf(':');
    const name = colon > 0 ? line.slice(0, colon).trim() : '';
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) return { badLine: i + 1 };
    headers[name] = line.slice(colon + 1).trim();
  }
  return { headers };
}

const headerText = (headers: Record<string, string> | undefined): string =>
  Object.entries(headers ?? {})
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');

/** Settings → Tracing: the W3C trace ids every request carries, and the optional OTLP/HTTP span export. */
export function TracingSection() {
  const settings = useApp((s) => s.appSettings);
  const update = useApp((s) => s.updateAppSettings);
  const t = useT();
  const stored: TelemetrySettings | undefined = settings?.telemetry;
  const [enabled, setEnabled] = useState(stored?.enabled ?? false);
  const [endpoint, setEndpoint] = useState(stored?.endpoint ?? '');
  const [headers, setHeaders] = useState(headerText(stored?.headers));
  const [error, setError] = useState<string | undefined>(undefined);
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    setEnabled(stored?.enabled ?? false);
    setEndpoint(stored?.endpoint ?? '');
    setHeaders(headerText(stored?.headers));
  }, [stored]);
  if (!settings) return null;

  const save = (event: FormEvent): void => {
    event.preventDefault();
    setSaved(false);
    const parsed = parseHeaders(headers);
    if ('badLine' in parsed) {
      setError(t('tracing.headerLine', { line: parsed.badLine }));
      return;
    }
    if (enabled && endpoint.trim() === '') {
      setError(t('tracing.needsEndpoint'));
      return;
    }
    void update({ telemetry: { enabled, endpoint: endpoint.trim(), headers: parsed.headers } }).then((refused) => {
      setError(refused);
      setSaved(refused === undefined);
    });
  };
  const edited = (): void => {
    setError(undefined);
    setSaved(false);
  };

  return (
    <section className="settings-section" aria-labelledby="settings-tracing" data-testid="tracing-settings">
      <h2 id="settings-tracing">{t('tracing.heading')}</h2>
      <p className="muted">{t('tracing.intro')}</p>
      <form className="settings-form tracing-form" onSubmit={save}>
        <label>
          <input
            type="checkbox"
            data-testid="telemetry-enabled"
            checked={enabled}
            onChange={(e) => {
              setEnabled(e.target.checked);
              edited();
            }}
          />{' '}
          {t('tracing.enabled')}
        </label>
        <label className="settings-field">
          <span>{t('tracing.endpoint')}</span>
          <input
            type="url"
            data-testid="telemetry-endpoint"
            placeholder={t('tracing.endpointPlaceholder')}
            spellCheck={false}
            autoComplete="off"
            value={endpoint}
            onChange={(e) => {
              setEndpoint(e.target.value);
              edited();
            }}
          />
        </label>
        <label className="settings-field">
          <span>{t('tracing.headers')}</span>
          <textarea
            data-testid="telemetry-headers"
            rows={2}
            placeholder={t('tracing.headersPlaceholder')}
            spellCheck={false}
            value={headers}
            onChange={(e) => {
              setHeaders(e.target.value);
              edited();
            }}
          />
        </label>
        <p className="muted">{t('tracing.note')}</p>
        <button type="submit" className="btn btn-small" data-testid="telemetry-save">
          {t('tracing.save')}
        </button>
      </form>
      {error !== undefined ? (
        <p className="settings-error" role="alert" data-testid="telemetry-error">
          {error}
        </p>
      ) : saved ? (
        <p className="settings-saved" role="status" data-testid="telemetry-saved">
          {t('appSettings.saved')}
        </p>
      ) : null}
    </section>
  );
}
