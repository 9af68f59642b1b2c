import type { HostMethods } from '../../../src-shared/host-api';
import { CoreError } from '../errors';
import { isFileLockBusy } from '../support/file-lock';
import { isOAuthSecretName } from '../auth/store';
import { SecretsFileUnreadableError, secretNamePattern, type SecretStore } from '../secrets/store';
import { watchFile, type FileWatch } from '../support/watch-file';

export type SecretsChannel = 'secrets:list' | 'secrets:set' | 'secrets:delete';

/** `${secret:…}` values (names only ever leave main) and answers to `${input:…}`. */
export class SecretsService {
  readonly api: Pick<HostMethods, SecretsChannel>;

  /** `reapply`: give servers waiting on a secret (or an input) another chance. */
  constructor(secrets: SecretStore, reapply: () => Promise<void>) {
    this.api = {
      // OAuth records (tokens, registrations) are secrets too, but Switchboard's own: sign out to remove them.
      'secrets:list': async () => visibleSecretNames(secrets),
      'secrets:set': async (name, value) => {
        try {
          secrets.set(name, value);
        } catch (error) {
          if (isFileLockBusy(error)) throw error;
          const why = error instanceof SecretsFileUnreadableError ? unreadableData(error) : secretNamePattern.test(name) ? {} : { reason: 'bad-secret-name' };
          throw new CoreError('invalid-argument', (error as Error).message, { data: { name, ...why } });
        }
        await reapply();
      },
      'secrets:delete': async (name) => {
        let deleted: boolean;
        try {
          deleted = secrets.delete(name);
        } catch (error) {
          if (!(error instanceof SecretsFileUnreadableError)) throw error;
          throw new CoreError('invalid-argument', error.message, { data: { name, ...unreadableData(error) } });
        }
        return deleted;
      },
    };
  }
}

/** A HostError's data for a change refused over an unreadable secrets file: the file, and why, for the UI's words. */
function unreadableData(error: SecretsFileUnreadableError): Record<string, string> {
  return { reason: 'secrets-file-unreadable', file: error.file, why: error.why, whyKind: error.whyKind };
}

/** The names `secrets:list` shows: Switchboard's own sign-in records are left out (sign out to remove them). */
export function visibleSecretNames(secrets: SecretStore): string[] {
  return secrets.list().filter((name) => !isOAuthSecretName(name));
}

/**
 * Follows another process's changes of a file-backed store (`switchboard secret set` or a `login` while the app or
 * `serve` runs): `changed` runs whenever a read of the file (the watcher's, or any other, such as the read before
 * this process's own write) has found values this process did not write since `seenAt` (the store's `changesRead`
 * when the host read it first, before anything used a value). The host then gives servers waiting on a secret
 * another chance, restarts those whose values changed, and tells the UI. Undefined for a store without a file.
 */
export function followSecretsFile(secrets: SecretStore, seenAt: number | undefined, changed: () => void, onError: (error: unknown) => void): FileWatch | undefined {
  const file = secrets.location;
  if (file === undefined || secrets.changesRead === undefined) return undefined;
  let seen = seenAt;
  return watchFile(
    file,
    () => {
      secrets.list(); // a file-backed store reads its file again when it moved
      if (secrets.changesRead === seen) return;
      seen = secrets.changesRead;
      changed();
    },
    { onError },
  );
}
