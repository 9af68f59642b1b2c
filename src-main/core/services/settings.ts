// The app settings' channels (`settings:get`, `settings:update`) over the SettingsStore of settings/store.ts.
import type { HostMethods } from '../../../src-shared/host-api';
import type { AppSettingsView } from '../../../src-shared/contract/settings';
import { appSettingsPatchSchema } from '../../../src-shared/schemas/settings';
import { defaultPolicy } from '../servers/policy';
import { CoreError } from '../errors';
import { parseSupervisionSettings, type SettingsStore } from '../settings/store';
import { zodIssueInfo } from '../config/parse';

export type SettingsChannel = 'settings:get' | 'settings:update';

/** The supervision knobs the Settings screen shows (the ones a user may set; see supervisionSettingsSchema). */
const supervisionKeys = [
  'autoRestart',
  'restartBaseDelayMs',
  'restartMaxDelayMs',
  'crashLoopCount',
  'stableMs',
  'startTimeoutMs',
  'requestTimeoutMs',
  'graceMs',
  'pingIntervalMs',
  'pingTimeoutMs',
] as const;

/**
 * `settings:get` / `settings:update`: the app settings a person edits in the Settings screen (env allow-list,
 * supervision defaults, default roots, default sandbox, theme), validated with the same schemas the core reads them with.
 * `onChange` runs after a write (host.ts re-applies the config so default roots, the default sandbox and new limits
 * take effect).
 */
export class SettingsService {
  readonly api: Pick<HostMethods, SettingsChannel>;

  constructor(
    private readonly settings: SettingsStore,
    private readonly onChange: () => void = () => undefined,
  ) {
    this.api = {
      'settings:get': async () => this.view(),
      'settings:update': async (raw) => {
        const parsed = appSettingsPatchSchema.safeParse(raw);
        if (!parsed.success) {
          const issue = parsed.error.issues[0];
          const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
          const info = issue !== undefined && issue.path.length > 0 ? zodIssueInfo(issue, raw) : undefined;
          // The problem as data (configDetail.reason.<detailReason>), when it has a wording of its own.
          const worded =
            info !== undefined && info.reason !== 'schema' && info.reason !== 'root-not-object'
              ? (({ reason, ...rest }) => ({ ...rest, reason: 'setting-invalid', detailReason: reason }))(info)
              : {};
          throw new CoreError('invalid-argument', `That setting is not valid — ${where}${issue?.message ?? 'invalid'}.`, {
            data: { path: issue?.path.map(String) ?? [], ...worded },
          });
        }
        const patch = parsed.data;
        const supervision = patch.supervision;
        if (
          supervision &&
          supervision.restartBaseDelayMs !== undefined &&
          supervision.restartMaxDelayMs !== undefined &&
          supervision.restartBaseDelayMs > supervision.restartMaxDelayMs
        ) {
          throw new CoreError('invalid-argument', 'That setting is not valid — the first restart delay is longer than the longest one.', {
            data: { path: ['supervision', 'restartBaseDelayMs'], reason: 'restart-delays' },
          });
        }
        if (!this.settings.update) throw new CoreError('not-supported', 'Settings cannot be changed in this mode.', { data: { reason: 'settings-read-only' } });
        this.settings.update(patch);
        this.onChange();
        return this.view();
      },
    };
  }

  view(): AppSettingsView {
    const supervision = parseSupervisionSettings(this.settings.supervision?.() ?? {}) as Record<string, number | boolean>;
    const defaults: Record<string, number | boolean> = {};
    for (const key of supervisionKeys) defaults[key] = defaultPolicy[key];
    const roots = this.settings.defaultRoots?.();
    const sandbox = this.settings.sandboxDefault?.();
    const telemetry = this.settings.telemetry?.();
    return {
      envAllowList: this.settings.envAllowList(),
      supervision,
      supervisionDefaults: defaults,
      ...(roots !== undefined ? { roots } : {}),
      ...(sandbox !== undefined ? { sandbox } : {}),
      theme: this.settings.theme?.() ?? 'system',
      ...(telemetry !== undefined ? { telemetry } : {}),
      writable: this.settings.update !== undefined,
    };
  }
}
