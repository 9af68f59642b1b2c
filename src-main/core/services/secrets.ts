import type { HostMethods } from '../../../src-shared/host-api';
import { CoreError } from '../errors';
import { isFileLockBusy } from '../support/file-lock';
import { SecretsFileUnreadableError, secretNamePattern, type SecretStore } from '../secrets/store';
import { visibleSecretNames } from '../secrets/follow';

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
