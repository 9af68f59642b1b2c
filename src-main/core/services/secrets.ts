import type { HostMethods } from '../../../src-shared/host-api';
import { CoreError } from '../errors';
import type { SecretStore } from '../secrets';

export type SecretsChannel = 'secrets:list' | 'secrets:set' | 'secrets:delete';

/** `${secret:…}` values (names only ever leave main) and answers to `${input:…}`. */
export class SecretsService {
  readonly api: Pick<HostMethods, SecretsChannel>;

  /** `reapply`: give servers waiting on a secret (or an input) another chance. */
  constructor(secrets: SecretStore, reapply: () => Promise<void>, changed: () => void = () => undefined) {
    this.api = {
      'secrets:list': async () => secrets.list(),
      'secrets:set': async (name, value) => {
        try {
          secrets.set(name, value);
        } catch (error) {
          throw new CoreError('invalid-argument', (error as Error).message, { data: { name } });
        }
        changed();
        await reapply();
      },
      'secrets:delete': async (name) => {
        const deleted = secrets.delete(name);
        changed();
        return deleted;
      },
    };
  }
}
