import { useApp } from '../hooks/useApp';
import { DebugBundleSection } from '../features/servers/DebugBundleSection';
import { SecretsPanel } from './SecretsPanel';
import { ShellActions } from './ShellActions';
import { DefaultRootsSection, EnvAllowListSection, SupervisionSection, ThemeSection } from './AppSettingsSections';
import './config.css';

export function SettingsScreen() {
  const info = useApp((s) => s.appInfo);
  return (
    <main className="screen settings-screen" aria-label="Settings" data-testid="settings-screen">
      <section className="settings-section" aria-labelledby="settings-files">
        <h2 id="settings-files">Files</h2>
        {info && (
          <dl className="settings-paths">
            <dt>Servers config</dt>
            <dd>
              <code>{info.configPath}</code>
            </dd>
            <dt>Logs</dt>
            <dd>
              <code>{info.logsDir}</code>
            </dd>
          </dl>
        )}
        <ShellActions />
      </section>
      <ThemeSection />
      <EnvAllowListSection />
      <SupervisionSection />
      <DefaultRootsSection />
      <SecretsPanel />
      <DebugBundleSection />
    </main>
  );
}
