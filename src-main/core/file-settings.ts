import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SupervisionPolicy } from './connection';
import type { SandboxSetting } from '../../src-shared/config-schema';
import type { ThemeSetting } from '../../src-shared/contract/everyday';
import { writeFileAtomicSync } from './data-files';
import { CoreError } from './errors';
import { parseRootsSetting, parseSandboxSetting, parseSupervisionSettings, parseThemeSetting, type AppSettingsPatch, type SettingsStore } from './settings';

type Stored = Record<string, unknown>;

/**
 * Settings for the CLI and headless mode, on the file electron-store uses in the desktop app
 * (`<userData>/config.json`: plain JSON, tab-indented), so the allow-list is shared. Read afresh on every get
 * (the app may have changed it) and written atomically, 0600, keeping keys this side does not know. Plain file
 * access instead of `conf`: that brought ajv, semver and more (schemas, migrations, not used here) into every CLI
 * command's start-up.
 */
export class FileSettings implements SettingsStore {
  private readonly file: string;

  constructor(dataDir: string) {
    this.file = join(dataDir, 'config.json');
    // Created on first use with its default, as electron-store does.
    const stored = this.read();
    if (stored !== undefined && !('envAllowList' in stored)) this.write({ ...stored, envAllowList: [] });
  }

  /** The file's object; {} when it does not exist; undefined when it is not a JSON object (left as it is). */
  private read(): Stored | undefined {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch {
      return {};
    }
    try {
      const value: unknown = JSON.parse(text);
      return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Stored) : undefined;
    } catch {
      return undefined;
    }
  }

  private get(key: string): unknown {
    return this.read()?.[key];
  }

  private write(stored: Stored): void {
    writeFileAtomicSync(this.file, `${JSON.stringify(stored, undefined, '\t')}\n`);
  }

  sandboxDefault(): SandboxSetting | undefined {
    return parseSandboxSetting(this.get('sandbox'));
  }

  defaultRoots(): string[] | undefined {
    return parseRootsSetting(this.get('roots'));
  }

  theme(): ThemeSetting {
    return parseThemeSetting(this.get('theme'));
  }

  /** Writes a validated patch (`null` deletes the key, so the default applies again). */
  update(patch: AppSettingsPatch): void {
    const stored = this.read();
    if (stored === undefined) {
      throw new CoreError('invalid-argument', `${this.file} is not a JSON object, so the settings were not saved. Fix the file or delete it (the defaults then apply).`);
    }
    const next: Stored = { ...stored };
    const put = (key: string, value: unknown): void => {
      if (value === null) delete next[key];
      else if (value !== undefined) next[key] = value;
    };
    if (patch.envAllowList !== undefined) next.envAllowList = patch.envAllowList;
    put('supervision', patch.supervision);
    put('roots', patch.roots);
    put('sandbox', patch.sandbox);
    if (patch.theme !== undefined) next.theme = patch.theme;
    this.write(next);
  }

  supervision(): Partial<SupervisionPolicy> {
    return parseSupervisionSettings(this.get('supervision'));
  }

  envAllowList(): string[] {
    const value: unknown = this.get('envAllowList');
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  }
}
