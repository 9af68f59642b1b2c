import { existsSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { app, nativeTheme } from 'electron';
import Store, { type Schema } from 'electron-store';
import { withFileLockSync } from '../core/support/file-lock';
import { StoredSettings, type AppSettingsPatch, type StoredSettingsKey } from '../core/settings/store';

/** A window's last normal (unmaximized) bounds and whether it was maximized. */
export interface WindowBounds {
  x?: number;
  y?: number;
  width: number;
  height: number;
  maximized?: boolean;
}

interface SettingsShape extends Record<string, unknown> {
  envAllowList: string[];
  windowBounds?: WindowBounds;
  /** Supervision knobs (validated field by field by the core). */
  supervision?: Record<string, unknown>;
  /** The default sandbox of stdio servers (validated by the core). */
  sandbox?: unknown;
  /** The default roots of servers without their own (validated by the core). */
  roots?: unknown;
  /** light | dark | system. */
  theme?: unknown;
  /** Span export (validated by the core). */
  telemetry?: unknown;
}

const integer = { type: 'integer' } as const;

const schema: Schema<SettingsShape> = {
  envAllowList: {
    type: 'array',
    // POSIX-ish variable names; anything else is rejected instead of silently passed to children.
    items: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$' },
    uniqueItems: true,
    default: [],
  },
  supervision: { type: 'object' },
  sandbox: { type: ['boolean', 'object'] },
  roots: { type: 'array', items: { type: 'string' } },
  theme: { type: 'string', enum: ['system', 'light', 'dark'] },
  telemetry: { type: 'object' },
  windowBounds: {
    type: 'object',
    properties: {
      x: integer,
      y: integer,
      width: { type: 'integer', minimum: 200 },
      height: { type: 'integer', minimum: 150 },
      maximized: { type: 'boolean' },
    },
    required: ['width', 'height'],
    additionalProperties: false,
  },
};

/**
 * App settings in `<userData>/config.json`, backed by electron-store (JSON schema validated). Implements the
 * core's `SettingsStore`, and also keeps what only the shell cares about (window bounds).
 */
export class ElectronSettings extends StoredSettings {
  private readonly store: Store<SettingsShape>;

  constructor() {
    super();
    this.store = openStore();
  }

  protected readKey(key: StoredSettingsKey): unknown {
    return this.store.get(key);
  }

  /** electron-store reads the file afresh for each change: under the file's lock, a CLI's change made meanwhile stays. */
  protected writeKeys(writes: Array<[key: StoredSettingsKey, value: unknown]>): void {
    withFileLockSync(this.store.path, () => {
      for (const [key, value] of writes) {
        if (value === null) this.store.delete(key);
        else this.store.set(key, value);
      }
    });
  }

  override update(patch: AppSettingsPatch): void {
    super.update(patch);
    if (patch.theme !== undefined) this.applyNativeTheme();
  }

  /** The window's own parts (title bar, scrollbars, menus, dialogs) follow the app's theme choice. */
  applyNativeTheme(): void {
    nativeTheme.themeSource = this.theme();
  }

  windowBounds(): WindowBounds | undefined {
    return this.store.get('windowBounds');
  }

  setWindowBounds(bounds: WindowBounds): void {
    try {
      withFileLockSync(this.store.path, () => this.store.set('windowBounds', bounds));
    } catch (error) {
      // A bounds value the schema rejects (e.g. a tiny window) is not worth failing a quit over.
      console.error(`[switchboard] could not save window bounds: ${String(error)}`);
    }
  }
}

function openStore(): Store<SettingsShape> {
  // configFileMode: only for this user, like every file in the data folder (the default is 0666 less the umask).
  const options = { schema, clearInvalidConfig: true, defaults: { envAllowList: [] }, configFileMode: 0o600 };
  try {
    return new Store<SettingsShape>(options);
  } catch (error) {
    // The file parses but breaks the schema (hand edited?). Keep it aside for the user, start from defaults.
    const file = join(app.getPath('userData'), 'config.json');
    const aside = `${file}.invalid-${Date.now()}`;
    if (existsSync(file)) renameSync(file, aside);
    console.error(`[switchboard] settings file ${file} was invalid (${String(error)}); moved to ${aside}`);
    return new Store<SettingsShape>(options);
  }
}
