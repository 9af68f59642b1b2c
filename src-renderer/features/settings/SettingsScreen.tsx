import { useApp } from '../../store/useApp';
import { DebugBundleSection } from '../servers/DebugBundleSection';
import { SecretsPanel } from '../secrets/SecretsPanel';
import { ShellActions } from '../../ui/ShellActions';
import { DefaultRootsSection, EnvAllowListSection, SandboxDefaultSection, SupervisionSection, ThemeSection } from './AppSettingsSections';
import { LanguageSection } from './LanguageSection';
import { useT } from '../../i18n';
import '../../styles/controls.css';
import './settings.css';

export function SettingsScreen() {
  const info = useApp((s) => s.appInfo);
  const t = useT();
  return (
    <main className="screen settings-screen" aria-label={t('settings.label')} data-testid="settings-screen">
      <section className="settings-section" aria-labelledby="settings-files">
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
      <EnvAllowListSection />
      <SupervisionSection />
      <DefaultRootsSection />
      <SandboxDefaultSection />
      <SecretsPanel />
      <DebugBundleSection />
    </main>
  );
}
