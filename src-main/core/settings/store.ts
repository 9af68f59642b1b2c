// The app settings (config.json in the data folder: env allow-list, supervision, default roots and sandbox, theme):
// the interface the core reads them through, their validation, the base of the stored ones and the in-memory one. Not
// the servers config (mcp.json, config/store.ts), not the chat's settings (chat/chat-settings.ts).
import { z } from 'zod';
import { rootsSchema, sandboxSettingSchema, type SandboxSetting } from '../../../src-shared/schemas/config';
import type { SupervisionPolicy } from '../servers/policy';
import type { TelemetrySettings, ThemeSetting } from '../../../src-shared/contract/settings';
import { appSettingsPatchSchema, supervisionSettingsSchema, telemetrySettingsSchema, themeSchema } from '../../../src-shared/schemas/settings';

/** A validated `settings:update`: each key replaces the stored value; `null` clears it. */
export type AppSettingsPatch = z.output<typeof appSettingsPatchSchema>;

/** App settings the core reads. Electron backs this with electron-store; CLI/headless with FileSettings (the same file). */
export interface SettingsStore {
  /** Extra environment variable names the user allows every child to inherit (DESIGN §3). */
  envAllowList(): string[];
  /** The user's supervision settings (`supervision` in config.json), already validated. */
  supervision?(): Partial<SupervisionPolicy>;
  /** `sandbox` in config.json: the sandbox of every stdio server without a `sandbox` key of its own. */
  sandboxDefault?(): SandboxSetting | undefined;
  /** `roots` in config.json: the roots of every server without a `roots` key of its own (paths or file:// URIs). */
  defaultRoots?(): string[] | undefined;
  /** `theme` in config.json: the renderer's light/dark/system choice. */
  theme?(): ThemeSetting;
  /** `telemetry` in config.json: the export of spans (undefined: off). */
  telemetry?(): TelemetrySettings | undefined;
  /** Stores a validated patch (the Settings screen); absent where settings cannot be changed. */
  update?(patch: AppSettingsPatch): void;
}

/** Validates the raw `theme` setting; anything else is "system". */
export function parseThemeSetting(raw: unknown): ThemeSetting {
  const parsed = themeSchema.safeParse(raw);
  return parsed.success ? parsed.data : 'system';
}

/** Validates the raw `telemetry` setting; an invalid one is ignored (no export), never fatal. */
export function parseTelemetrySetting(raw: unknown): TelemetrySettings | undefined {
  const parsed = telemetrySettingsSchema.safeParse(raw);
  return parsed.success ? parsed.data : undefined;
}

/** Validates the raw `roots` setting; an invalid one is ignored (no default roots), never fatal. */
export function parseRootsSetting(raw: unknown): string[] | undefined {
  const parsed = rootsSchema.safeParse(raw);
  return parsed.success ? parsed.data : undefined;
}

/** Validates the raw `sandbox` setting; an invalid one is ignored (no default sandbox), never fatal. */
export function parseSandboxSetting(raw: unknown): SandboxSetting | undefined {
  const parsed = sandboxSettingSchema.safeParse(raw);
  return parsed.success ? parsed.data : undefined;
}

/** Validates the raw `supervision` value; an invalid field is dropped (the default applies) rather than fatal. */
export function parseSupervisionSettings(raw: unknown): Partial<SupervisionPolicy> {
  if (typeof raw !== 'object' || raw === null) return {};
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    const field = supervisionSettingsSchema.shape[key as keyof typeof supervisionSettingsSchema.shape];
    if (field && field.safeParse(value).success) out[key] = value;
  }
  return out as Partial<SupervisionPolicy>;
}

/** The keys of config.json the core reads and a patch writes, in the order a patch is applied. */
export const storedSettingsKeys = ['envAllowList', 'supervision', 'roots', 'sandbox', 'theme', 'telemetry'] as const;
export type StoredSettingsKey = (typeof storedSettingsKeys)[number];

/**
 * A `SettingsStore` over raw stored values (config.json read directly by FileSettings, or through electron-store):
 * every read is validated here, and a patch becomes a list of writes, `null` for a key to delete (so its default
 * applies again). Subclasses only say how to read one key and how to store the writes.
 */
export abstract class StoredSettings implements SettingsStore {
  protected abstract readKey(key: StoredSettingsKey): unknown;
  protected abstract writeKeys(writes: Array<[key: StoredSettingsKey, value: unknown]>): void;

  envAllowList(): string[] {
    const value = this.readKey('envAllowList');
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  }

  supervision(): Partial<SupervisionPolicy> {
    return parseSupervisionSettings(this.readKey('supervision'));
  }

  sandboxDefault(): SandboxSetting | undefined {
    return parseSandboxSetting(this.readKey('sandbox'));
  }

  defaultRoots(): string[] | undefined {
    return parseRootsSetting(this.readKey('roots'));
  }

  theme(): ThemeSetting {
    return parseThemeSetting(this.readKey('theme'));
  }

  telemetry(): TelemetrySettings | undefined {
    return parseTelemetrySetting(this.readKey('telemetry'));
  }

  /** Writes a validated patch (`null` deletes the key, so the default applies again). */
  update(patch: AppSettingsPatch): void {
    const writes: Array<[StoredSettingsKey, unknown]> = [];
    for (const key of storedSettingsKeys) if (patch[key] !== undefined) writes.push([key, patch[key]]);
    this.writeKeys(writes);
  }
}

/** Settings held in memory: tests, and callers that pass an explicit list. */
export class StaticSettings implements SettingsStore {
  private roots: string[] | undefined;
  private chosenTheme: ThemeSetting = 'system';
  private spans: TelemetrySettings | undefined;
  constructor(
    private allow: string[] = [],
    private policy: Partial<SupervisionPolicy> = {},
    private sandbox?: SandboxSetting,
  ) {}
  update(patch: AppSettingsPatch): void {
    if (patch.envAllowList !== undefined) this.allow = [...patch.envAllowList];
    if (patch.supervision !== undefined) this.policy = patch.supervision === null ? {} : parseSupervisionSettings(patch.supervision);
    if (patch.roots !== undefined) this.roots = patch.roots ?? undefined;
    if (patch.sandbox !== undefined) this.sandbox = patch.sandbox ?? undefined;
    if (patch.theme !== undefined) this.chosenTheme = patch.theme;
    if (patch.telemetry !== undefined) this.spans = patch.telemetry ?? undefined;
  }
  telemetry(): TelemetrySettings | undefined {
    return this.spans;
  }
  defaultRoots(): string[] | undefined {
    return this.roots ? [...this.roots] : undefined;
  }
  theme(): ThemeSetting {
    return this.chosenTheme;
  }
  sandboxDefault(): SandboxSetting | undefined {
    return this.sandbox;
  }
  envAllowList(): string[] {
    return [...this.allow];
  }
  supervision(): Partial<SupervisionPolicy> {
    return { ...this.policy };
  }
}
