import type { ServerEntry } from '../../../src-shared/schemas/config';
import type { ConfigText, HostMethods, ImportResultView } from '../../../src-shared/host-api';
import { setAt, type ConfigSnapshot, type ConfigStore, type TextEdit } from '../config/store';
import { CoreError } from '../errors';
import { exportServers, extractSecrets, previewImport } from '../config/importers';
import type { SecretStore } from '../secrets/store';

export type ConfigChannel =
  | 'config:read'
  | 'config:save'
  | 'servers:upsert'
  | 'servers:remove'
  | 'servers:set-enabled'
  | 'config:export'
  | 'config:import-preview'
  | 'config:import-apply';

export interface ConfigServiceOptions {
  configPath: string;
  store: ConfigStore;
  secrets: SecretStore;
  hostEnv: Readonly<Record<string, string | undefined>>;
  /** Apply the file's current config to the running servers now (a no-op when servers are not run). */
  apply: (snapshot: ConfigSnapshot) => Promise<void>;
  /** An entry saved through the app's own server form counts as approved (trust/consent.ts). */
  approve?: (name: string, entry: ServerEntry) => void;
}

/** The servers config file: the raw editor, server edits, export and import. Every edit is applied at once. */
export class ConfigService {
  readonly api: Pick<HostMethods, ConfigChannel>;

  constructor(private readonly options: ConfigServiceOptions) {
    const { store, secrets, hostEnv } = options;
    const requireServer = (name: string): ServerEntry => {
      const entry = store.snapshot().config.mcpServers[name];
      if (!entry) throw new CoreError('unknown-server', `There is no server named "${name}" in the config.`, { data: { server: name } });
      return entry;
    };
    const edit = async (change: TextEdit, what: string): Promise<void> => {
      // Applied now rather than when the watcher sees it, so the caller sees the result.
      await options.apply(await store.update(change, what));
    };
    this.api = {
      'config:read': async () => this.text(store.refresh()),
      'config:save': async ({ text, baseHash }) => {
        const snapshot = await store.saveText(text, baseHash);
        await options.apply(snapshot);
        return this.text(snapshot);
      },
      'servers:upsert': async ({ name, entry, previousName }) => {
        // Recorded before the file changes, so the registry finds it approved when it applies the edit.
        options.approve?.(name, entry);
        if (previousName !== undefined && previousName !== name) {
          requireServer(previousName);
          if (store.snapshot().config.mcpServers[name])
            throw new CoreError('invalid-argument', `A server named "${name}" already exists; pick another name.`, {
              data: { server: name, reason: 'name-taken' },
            });
          await edit(
            (text) => setAt(['mcpServers', name], entry)(setAt(['mcpServers', previousName], undefined)(text)),
            `rename "${previousName}" to "${name}"`,
          );
          return;
        }
        await edit(setAt(['mcpServers', name], entry), `save server "${name}"`);
      },
      'servers:remove': async (name) => {
        requireServer(name);
        await edit(setAt(['mcpServers', name], undefined), `remove server "${name}"`);
      },
      'servers:set-enabled': async (name, enabled) => {
        requireServer(name);
        await edit(setAt(['mcpServers', name, 'disabled'], enabled ? undefined : true), `${enabled ? 'enable' : 'disable'} server "${name}"`);
      },
      'config:export': async ({ names }) => exportServers(store.snapshot().config, names),
      'config:import-preview': async ({ source }) => previewImport(source, store.snapshot().config, hostEnv),
      'config:import-apply': async ({ source, names, overwrite = [], moveSecrets = false }) => {
        const preview = previewImport(source, store.snapshot().config, hostEnv);
        const result: ImportResultView = { added: [], replaced: [], skipped: [], secretsStored: [] };
        const edits: TextEdit[] = [];
        for (const name of names) {
          const candidate = preview.servers.find((c) => c.name === name);
          if (!candidate)
            result.skipped.push({ name, reason: `not in ${preview.file}`, reasonInfo: { code: 'import-not-in-source', data: { file: preview.file } } });
          else if (candidate.invalid) {
            const cause = candidate.invalidInfo ? { cause: { ...candidate.invalidInfo, text: candidate.invalid } } : {};
            result.skipped.push({
              name,
              reason: `invalid in the source: ${candidate.invalid}`,
              reasonInfo: { code: 'import-skipped-invalid', data: { detail: candidate.invalid }, ...cause },
            });
          } else if (candidate.status === 'same')
            result.skipped.push({ name, reason: 'already in your config, identical', reasonInfo: { code: 'import-same' } });
          else if (candidate.status === 'conflict' && !overwrite.includes(name)) {
            result.skipped.push({ name, reason: 'a different server of that name exists (not overwritten)', reasonInfo: { code: 'import-conflict' } });
          } else {
            let entry = candidate.entry;
            if (moveSecrets && candidate.secretKeys.length > 0) {
              const moved = extractSecrets(name, entry);
              for (const [secretName, value] of Object.entries(moved.secrets)) {
                secrets.set(secretName, value);
                result.secretsStored.push(secretName);
              }
              entry = moved.entry;
            }
            edits.push(setAt(['mcpServers', name], entry));
            (candidate.status === 'conflict' ? result.replaced : result.added).push(name);
          }
        }
        if (edits.length > 0) await edit((text) => edits.reduce((t, e) => e(t), text), `import from ${preview.file}`);
        return result;
      },
    };
  }

  /** The file as text for the raw editor, with its problem located. */
  text(snapshot: ConfigSnapshot = this.options.store.snapshot()): ConfigText {
    return {
      path: this.options.configPath,
      text: snapshot.text,
      hash: snapshot.hash,
      backupPath: this.options.store.backupFile,
      ...(snapshot.error
        ? {
            problem: {
              file: snapshot.error.file,
              line: snapshot.error.line,
              column: snapshot.error.column,
              message: snapshot.error.detail,
              ...(snapshot.error.info ? { info: snapshot.error.info } : {}),
            },
          }
        : {}),
    };
  }
}
