import { z } from 'zod';
import { rootsSchema, sandboxSettingSchema } from './config';

/** Argument tuples of the app settings channels (see ../contract/settings.ts). */

/** POSIX-style variable names (what electron-store's schema accepts too). */
export const envNameSchema = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'a variable name is letters, digits and _ and does not start with a digit')
  .max(200);

const ms = (min: number, max: number) => z.number().int().min(min).max(max);
/** The supervision knobs a person may set (the same bounds the core applies when it reads them). */
export const supervisionSettingsSchema = z
  .object({
    autoRestart: z.boolean(),
    restartBaseDelayMs: ms(0, 600_000),
    restartMaxDelayMs: ms(0, 3_600_000),
    crashLoopCount: z.number().int().min(1).max(100),
    stableMs: ms(0, 3_600_000),
    startTimeoutMs: ms(100, 3_600_000),
    requestTimeoutMs: ms(100, 24 * 3_600_000),
    graceMs: ms(0, 60_000),
    pingIntervalMs: ms(0, 24 * 3_600_000),
    pingTimeoutMs: ms(100, 600_000),
  })
  .partial()
  .strict();

export const themeSchema = z.enum(['system', 'light', 'dark']);

/** The default sandbox of stdio servers: as a config entry's `sandbox` key, and no empty path. */
export const sandboxDefaultSchema = sandboxSettingSchema.superRefine((value, ctx) => {
  if (typeof value !== 'object') return;
  for (const key of ['allowRead', 'allowWrite'] as const) {
    (value[key] ?? []).forEach((path, index) => {
      if (path.trim() === '') ctx.addIssue({ code: 'custom', path: [key, index], message: 'a path cannot be empty' });
    });
  }
});

/** An HTTP header name (RFC 9110 token). */
const headerNameSchema = z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'a header name is letters, digits and -');

/** Span export: an http(s) endpoint (required when on) and the headers to send with each export. */
export const telemetrySettingsSchema = z
  .object({
    enabled: z.boolean(),
    endpoint: z.string().max(2000),
    headers: z.record(headerNameSchema, z.string().max(8000)).default({}),
  })
  .strict()
  .superRefine((value, ctx) => {
    if (!value.enabled && value.endpoint === '') return;
    let url: URL | undefined;
    try {
      url = new URL(value.endpoint);
    } catch {
      url = undefined;
    }
    if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:'))
      ctx.addIssue({ code: 'custom', path: ['endpoint'], message: 'the endpoint is an http:// or https:// URL, e.g. http://localhost:4318/v1/traces' });
  });

/** A change to the app settings: each key replaces the stored value; `null` clears it (the default applies). */
export const appSettingsPatchSchema = z
  .object({
    envAllowList: z
      .array(envNameSchema)
      .max(500)
      .refine((names) => new Set(names).size === names.length, 'each name once')
      .optional(),
    supervision: supervisionSettingsSchema.nullable().optional(),
    roots: rootsSchema.nullable().optional(),
    sandbox: sandboxDefaultSchema.nullable().optional(),
    theme: themeSchema.optional(),
    telemetry: telemetrySettingsSchema.nullable().optional(),
  })
  .strict();

export const settingsChannels = {
  'settings:get': z.tuple([]),
  'settings:update': z.tuple([appSettingsPatchSchema]),
} as const;
