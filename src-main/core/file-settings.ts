import Conf from 'conf';
import type { SupervisionPolicy } from './connection';
import type { SandboxSetting } from '../../src-shared/config-schema';
import type { ThemeSetting } from '../../src-shared/contract/everyday';
import { parseRootsSetting, parseSandboxSetting, parseSupervisionSettings, parseThemeSetting, type AppSettingsPatch, type SettingsStore } from './settings';

type Shape = { envAllowList: string[]; supervision?: unknown; sandbox?: unknown; roots?: unknown; theme?: unknown };

/**
 * Settings for the CLI and headless mode: `conf` (electron-store's Node base) on the same file electron-store
 * uses in the desktop app (`<userData>/config.json`), so the allow-list is shared.
 */
export class FileSettings implements SettingsStore {
  private readonly store: Conf<Shape>;

  constructor(dataDir: string) {
    this.store = new Conf<Shape>({
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

  theme(): ThemeSetting {
    return parseThemeSetting(this.store.get('theme'));
  }

  /** Writes a validated patch (`null` deletes the key, so the default applies again). */
  update(patch: AppSettingsPatch): void {
    if (patch.envAllowList !== undefined) this.store.set('envAllowList', patch.envAllowList);
    if (patch.supervision === null) this.store.delete('supervision');
    else if (patch.supervision !== undefined) this.store.set('supervision', patch.supervision);
    if (patch.roots === null) this.store.delete('roots');
    else if (patch.roots !== undefined) this.store.set('roots', patch.roots);
    if (patch.sandbox === null) this.store.delete('sandbox');
    else if (patch.sandbox !== undefined) this.store.set('sandbox', patch.sandbox);
    if (patch.theme !== undefined) this.store.set('theme', patch.theme);
  }

  supervision(): Partial<SupervisionPolicy> {
    return parseSupervisionSettings(this.store.get('supervision'));
  }

  envAllowList(): string[] {
    const value: unknown = this.store.get('envAllowList');
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  }
}
