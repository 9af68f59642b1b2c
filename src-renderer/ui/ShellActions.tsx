import { useState } from 'react';
import { describeError } from '../host/bridge-client';
import { useApp } from '../store/useApp';
import { useClipboard } from './useClipboard';
import { useT } from '../i18n';
import './shell-actions.css';

type Target = 'config' | 'logs';

/**
 * "Open config file" and "Reveal logs". The desktop app opens them in the OS; headless mode cannot, so the path
 * is shown with a Copy button instead.
 */
export function ShellActions() {
  const openShell = useApp((s) => s.openShell);
  const [shown, setShown] = useState<{ target: Target; path: string } | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const { copy, copied } = useClipboard();
  const t = useT();

  const open = async (target: Target): Promise<void> => {
    setError(undefined);
    try {
      const result = await openShell(target);
      setShown(result.opened ? undefined : { target, path: result.path });
    } catch (e) {
      setError(describeError(e).message);
    }
  };

  return (
    <div className="shell-actions">
      <button type="button" className="btn btn-small" data-testid="open-config-file" onClick={() => void open('config')}>
        {t('shell.openConfig')}
      </button>
      <button type="button" className="btn btn-small" data-testid="reveal-logs" onClick={() => void open('logs')}>
        {t('shell.revealLogs')}
      </button>
      {shown && (
        <div className="shell-path" role="status" data-testid="shell-path">
          <span className="muted">{t('shell.cannotOpen', { what: shown.target === 'config' ? t('shell.configFile') : t('shell.logsFolder') })}</span>{' '}
          <code data-testid="shell-path-text">{shown.path}</code>{' '}
          <button type="button" className="btn btn-small" onClick={() => void copy(shown.path)}>
            {copied ? t('common.copied') : t('shell.copyPath')}
          </button>
          <button type="button" className="btn btn-ghost btn-small" aria-label={t('shell.dismiss')} onClick={() => setShown(undefined)}>
            ✕
          </button>
        </div>
      )}
      {error && (
        <span className="form-error" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}
