import { useEffect } from 'react';
import { useApp } from '../../store/useApp';
import { DebugBundleSection } from '../servers/DebugBundleSection';
import { SecretsPanel } from '../secrets/SecretsPanel';
import { ShellActions } from '../../ui/ShellActions';
import { DefaultRootsSection, EnvAllowListSection, SandboxDefaultSection, SupervisionSection, ThemeSection } from './AppSettingsSections';
import { LanguageSection } from './LanguageSection';
import { TracingSection } from './TracingSection';
import { ChatToolsSection, ProvidersSection } from './ProvidersSection';
import { ToolsetsSection } from './ToolsetsSection';
import { useT } from '../../i18n';
import '../../styles/controls.css';
import './settings.css';

export function SettingsScreen() {
  const info = useApp((s) => s.appInfo);
  const target = useApp((s) => s.settingsTarget);
  const shown = useApp((s) => s.settingsTargetShown);
  const t = useT();
  // The chat's "Providers & approvals" lands here: the providers' heading in view and focused.
  useEffect(() => {
    if (target !== 'providers') return;
    const heading = document.getElementById('settings-providers-heading');
    heading?.scrollIntoView({ block: 'start' });
    heading?.focus({ preventScroll: true });
    shown();
  }, [target, shown]);
  return (
    <main className="screen settings-screen" aria-label={t('settings.label')} data-testid="settings-screen">
      <div className="settings-columns">
        <section className="settings-section settings-wide" aria-labelledby="settings-files">
          <h2 id="settings-files">{t('settings.files')}</h2>
          {info && (
            <dl className="settings-paths">
              <dt>{t('settings.serversConfig')}</dt>
              <dd>
                <code>{info.configPath}</code>
              </dd>
              <dt>{t('settings.logs')}</dt>
              <dd>
                <code>{info.logsDir}</code>
              </dd>
            </dl>
          )}
          <ShellActions />
        </section>
        <LanguageSection />
        <ThemeSection />
        <ProvidersSection />
        <ChatToolsSection />
        <ToolsetsSection />
        <EnvAllowListSection />
        <DefaultRootsSection />
        <SupervisionSection />
        <SandboxDefaultSection />
        <TracingSection />
        <DebugBundleSection />
        <SecretsPanel />
      </div>
    </main>
  );
}
