// The app settings' file for the CLI and headless mode (the desktop app reaches the same file through
// electron/settings.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from '../support/data-files';
import { CoreError } from '../errors';
import { isFileLockBusy, withFileLockSync } from '../support/file-lock';
import { StoredSettings, type StoredSettingsKey } from './store';

type Stored = Record<string, unknown>;

/**
 * Settings for the CLI and headless mode, on the file electron-store uses in the desktop app
 * (`<userData>/config.json`: plain JSON, tab-indented), so the allow-list is shared. Read afresh on every get
 * (the app may have changed it) and written atomically, 0600, keeping keys this side does not know. Plain file
 * access instead of `conf`: that brought ajv, semver and more (schemas, migrations, not used here) into every CLI
 * command's start-up.
 */
export class FileSettings extends StoredSettings {
  private readonly file: string;

  constructor(dataDir: string) {
    super();
    this.file = join(dataDir, 'config.json');
    // Created on first use with its default, as electron-store does.
    if (this.read()?.envAllowList !== undefined) return;
    try {
      withFileLockSync(this.file, () => {
        const stored = this.read();
        if (stored !== undefined && !('envAllowList' in stored)) this.write({ ...stored, envAllowList: [] });
      });
    } catch (error) {
      // Only a default (reads answer [] without it): another process busy with the file is no reason to fail a start.
      if (!isFileLockBusy(error)) throw error;
    }
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

  protected readKey(key: StoredSettingsKey): unknown {
    return this.read()?.[key];
  }

  private write(stored: Stored): void {
    writeFileAtomicSync(this.file, `${JSON.stringify(stored, undefined, '\t')}\n`);
  }

  /** One read-modify-write of the file for the whole patch, under the file's lock (another process's change stays). */
  protected writeKeys(writes: Array<[key: StoredSettingsKey, value: unknown]>): void {
    withFileLockSync(this.file, () => {
      const stored = this.read();
      if (stored === undefined) {
        throw new CoreError(
          'invalid-argument',
          `${this.file} is not a JSON object, so the settings were not saved. Fix the file or delete it (the defaults then apply).`,
        );
      }
      const next: Stored = { ...stored };
      for (const [key, value] of writes) {
        if (value === null) delete next[key];
        else next[key] = value;
      }
      this.write(next);
    });
  }
}
