import { z } from 'zod';
import { rootsSchema, sandboxSettingSchema, type SandboxSetting } from '../../src-shared/config-schema';
import type { SupervisionPolicy } from './connection';

/** App settings the core reads. Electron backs this with electron-store; CLI/headless with `conf` (its Node base). */
export interface SettingsStore {
  /** Extra environment variable names the user allows every child to inherit (DESIGN §3). */
  envAllowList(): string[];
  /** The user's supervision settings (`supervision` in config.json), already validated. */
  supervision?(): Partial<SupervisionPolicy>;
  /** `sandbox` in config.json: the sandbox of every stdio server without a `sandbox` key of its own (issue 12 §4). */
  sandboxDefault?(): SandboxSetting | undefined;
  /** `roots` in config.json: the roots of every server without a `roots` key of its own (paths or file:// URIs). */
  defaultRoots?(): string[] | undefined;
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

/** What a user may set under `supervision` in the settings file; anything else there is ignored. */
const supervisionSettingsSchema = z
  .object({
    autoRestart: z.boolean(),
    restartBaseDelayMs: z.number().int().min(0).max(600_000),
    restartMaxDelayMs: z.number().int().min(0).max(3_600_000),
    crashLoopCount: z.number().int().min(1).max(100),
    stableMs: z.number().int().min(0).max(3_600_000),
    startTimeoutMs: z.number().int().min(100).max(3_600_000),
    requestTimeoutMs: z.number().int().min(100).max(24 * 3_600_000),
    graceMs: z.number().int().min(0).max(60_000),
    pingIntervalMs: z.number().int().min(0).max(24 * 3_600_000),
    pingTimeoutMs: z.number().int().min(100).max(600_000),
  })
  .partial();

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

/** Settings held in memory: tests, and callers that pass an explicit list. */
export class StaticSettings implements SettingsStore {
  constructor(
    private readonly allow: string[] = [],
    private readonly policy: Partial<SupervisionPolicy> = {},
    private readonly sandbox?: SandboxSetting,
  ) {}
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
