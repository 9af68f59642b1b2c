import { createHash } from 'node:crypto';
import { isOAuthSecretName, isOAuthTokensName } from '../auth/store';
import { watchFile, type FileWatch } from '../support/watch-file';
import type { SecretStore } from './store';

/** The names `secrets:list` shows: Switchboard's own sign-in records are left out (sign out to remove them). */
export function visibleSecretNames(secrets: SecretStore): string[] {
  return secrets.list().filter((name) => !isOAuthSecretName(name));
}

/**
 * Tells the UI the secret names (`secrets:changed`) when the visible ones differ from what it was last told: after a
 * change made through the host (the settings panel, an import, an install, a sign-in) and after one another process
 * made (see followSecrets).
 */
export class SecretNamesAnnouncer {
  private announced: string;

  constructor(
    private readonly secrets: SecretStore,
    private readonly emit: (names: string[]) => void,
  ) {
    this.announced = JSON.stringify(visibleSecretNames(secrets));
  }

  announce(): void {
    const names = visibleSecretNames(this.secrets);
    const text = JSON.stringify(names);
    if (text === this.announced) return;
    this.announced = text;
    this.emit(names);
  }
}

/**
 * A digest of the sign-ins' tokens in the store: tells when another process finished a sign-in (or signed out). Only
 * the tokens: a sign-in in progress elsewhere also writes its registration and its PKCE flow record, and a server
 * restarted meanwhile would start a flow of its own over that one.
 */
export function signInRecordsDigest(secrets: SecretStore): string {
  const hash = createHash('sha256');
  for (const name of secrets.list()) if (isOAuthTokensName(name)) hash.update(`${name}\0${secrets.get(name) ?? ''}\0`);
  return hash.digest('hex');
}

/**
 * Follows another process's changes of a file-backed store (`switchboard secret set` or a `login` while the app or
 * `serve` runs): `changed` runs whenever a read of the file (the watcher's, or any other, such as the read before
 * this process's own write) has found values this process did not write since `seenAt` (the store's `changesRead`
 * when the host read it first, before anything used a value). Undefined for a store without a file.
 */
export function followSecretsFile(
  secrets: SecretStore,
  seenAt: number | undefined,
  changed: () => void,
  onError: (error: unknown) => void,
): FileWatch | undefined {
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

/** Where following starts: what the file held and its sign-ins, taken before any server uses a value. */
export interface SecretsReadMark {
  changesRead: number | undefined;
  signIns: string;
}

export function markSecretsRead(secrets: SecretStore): SecretsReadMark {
  return { changesRead: secrets.changesRead, signIns: signInRecordsDigest(secrets) };
}

export interface SecretsFollowerOptions {
  secrets: SecretStore;
  /** From markSecretsRead, taken when the host read the store first. */
  from: SecretsReadMark;
  announcer: SecretNamesAnnouncer;
  /** Gives servers waiting on a secret another chance and restarts those whose values changed (re-applies the config). */
  reapply: () => Promise<void>;
  /** Another process signed in or out (`switchboard login` while this runs): servers waiting for a sign-in try again. */
  signedInElsewhere: () => void;
  log: { info(line: string): void; warn(line: string): void };
}

/**
 * The host's side of another process's change of the secrets file: say so in the log, tell the UI the names, let the
 * servers that use the values follow, and retry the sign-ins of servers waiting for one when the tokens changed.
 * Undefined for a store without a file. Once disposed, a change already seen starts nothing more.
 */
export function followSecrets(options: SecretsFollowerOptions): { dispose(): Promise<void> } | undefined {
  const { secrets, log } = options;
  let disposed = false;
  let signInsSeen = options.from.signIns;
  const watch = followSecretsFile(
    secrets,
    options.from.changesRead,
    () => {
      if (disposed) return;
      log.info('secrets changed by another process: servers that use them follow');
      options.announcer.announce();
      const signIns = signInRecordsDigest(secrets);
      const signedInElsewhere = signIns !== signInsSeen;
      signInsSeen = signIns;
      void options.reapply().then(() => {
        if (signedInElsewhere && !disposed) options.signedInElsewhere();
      });
    },
    (error) => log.warn(`following the secrets file failed: ${error instanceof Error ? error.message : String(error)}`),
  );
  if (!watch) return undefined;
  return {
    async dispose() {
      disposed = true;
      await watch.dispose();
    },
  };
}
