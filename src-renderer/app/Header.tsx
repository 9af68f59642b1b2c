import { NavTabs } from './NavTabs';
import { ShortcutsButton } from './Shortcuts';
import { useApp } from '../store/useApp';
import { useT } from '../i18n';

export function Header() {
  const info = useApp((s) => s.appInfo);
  const infoError = useApp((s) => s.appInfoError);
  const t = useT();
  return (
    <header className="app-header" aria-label="Switchboard">
      <div className="brand">
        <span className="brand-mark" aria-hidden="true">
          <span />
          <span />
          <span />
        </span>
        <h1>Switchboard</h1>
        {info && (
          <span className="badge" title={t('header.modeBadgeTitle', { version: info.version, mode: info.mode })}>
            {info.mode} · v{info.version}
          </span>
        )}
      </div>
      <NavTabs />
      <div className="config-path">
        <span className="muted">{t('header.config')}</span>
        {info ? (
          <code className="path-tail" title={info.configPath}>
            {/* The ellipsis goes on the left (the file name matters most); bdi keeps the path itself LTR. */}
            <bdi data-testid="config-path">{info.configPath}</bdi>
          </code>
        ) : (
          <span className="muted">{infoError ?? '…'}</span>
        )}
      </div>
      <ShortcutsButton />
    </header>
  );
}
