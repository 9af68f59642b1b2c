import Conf from 'conf';
import type { SupervisionPolicy } from './connection';
import type { SandboxSetting } from '../../src-shared/config-schema';
import { parseRootsSetting, parseSandboxSetting, parseSupervisionSettings, type SettingsStore } from './settings';

/**
 * Settings for the CLI and headless mode: `conf` (electron-store's Node base) on the same file electron-store
 * uses in the desktop app (`<userData>/config.json`), so the allow-list is shared.
 */
export class FileSettings implements SettingsStore {
  private readonly store: Conf<{ envAllowList: string[]; supervision?: unknown; sandbox?: unknown; roots?: unknown }>;

  constructor(dataDir: string) {
    this.store = new Conf<{ envAllowList: string[]; supervision?: unknown; sandbox?: unknown; roots?: unknown }>({
      cwd: dataDir,
      configName: 'config',
      projectName: 'switchboard',
      defaults: { envAllowList: [] },
      // Only for this user (the data folder's files are 0600); conf's default is 0666 less the umask.
      configFileMode: 0o600,
    });
  }

  sandboxDefault(): SandboxSetting | undefined {
    return parseSandboxSetting(this.store.get('sandbox'));
  }

  defaultRoots(): string[] | undefined {
    return parseRootsSetting(this.store.get('roots'));
  }

  supervision(): Partial<SupervisionPolicy> {
    return parseSupervisionSettings(this.store.get('supervision'));
  }

  envAllowList(): string[] {
    const value: unknown = this.store.get('envAllowList');
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  }
}
