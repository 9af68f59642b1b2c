/** The app settings a person edits in the Settings screen, as the UI sees them. Zod-free. */

export type ThemeSetting = 'system' | 'light' | 'dark';

/** A sandbox setting, as a config entry's `sandbox` key: true (defaults, network allowed), false, or the details. */
export type SandboxDefault = boolean | { allowRead?: string[]; allowWrite?: string[]; network?: boolean };

/**
 * The export of spans over OTLP/HTTP (JSON): each MCP request a span under its chat turn or direct call. Off by
 * default. `headers` go with every export request (a collector's API key, say).
 */
export interface TelemetrySettings {
  enabled: boolean;
  /** The OTLP/HTTP traces endpoint, e.g. http://localhost:4318/v1/traces. */
  endpoint: string;
  headers: Record<string, string>;
}

/** The app settings the Settings screen edits (`settings:get` / `settings:update`). */
export interface AppSettingsView {
  /** Extra environment variable names every child may inherit (DESIGN §3). */
  envAllowList: string[];
  /** The supervision knobs the user set (unset ones take the defaults in `supervisionDefaults`). */
  supervision: Record<string, number | boolean>;
  /** What applies to a knob the user did not set. */
  supervisionDefaults: Record<string, number | boolean>;
  /** Roots of every server without its own `roots` key (paths or file:// URIs); undefined: none. */
  roots?: string[];
  /** The sandbox of every stdio server without a `sandbox` key of its own; undefined: none. */
  sandbox?: SandboxDefault;
  theme: ThemeSetting;
  /** Span export (undefined: never set, so off). */
  telemetry?: TelemetrySettings;
  /** False where settings cannot be changed here (e.g. a host made with fixed settings). */
  writable: boolean;
}

/** A change to the app settings (`settings:update`): each key replaces the stored value; `null` clears it. */
export interface AppSettingsPatch {
  envAllowList?: string[];
  supervision?: Record<string, number | boolean> | null;
  roots?: string[] | null;
  sandbox?: SandboxDefault | null;
  theme?: ThemeSetting;
  telemetry?: TelemetrySettings | null;
}

export interface SettingsResults {
  'settings:get': AppSettingsView;
  /** Validated; the new settings apply to servers started from now on (the env allow-list: on their next start). */
  'settings:update': AppSettingsView;
}

/** Each settings channel once, at runtime (the preload and the IPC gateway register them by name). */
export const settingsChannelNames = { 'settings:get': true, 'settings:update': true } as const satisfies Record<keyof SettingsResults, true>;
