import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { safeStorage } from 'electron';
import writeFileAtomic from 'write-file-atomic';
import { z } from 'zod';
import { assertSecretName, DelegatingSecretStore, FileSecretStore, type SecretStore } from '../core/secrets/store';
import { secretsFileOf } from '../core/support/paths';

/** A SecretStore whose writes land on disk asynchronously; `flush()` waits for them (before exit). */
export interface DesktopSecretStore extends SecretStore {
  flush(): Promise<void>;
}

const fileSchema = z.object({ version: z.literal(1), values: z.record(z.string(), z.string()) });

/**
 * `${secret:NAME}` values encrypted with the OS keychain (Electron safeStorage: Keychain, DPAPI, libsecret/kwallet)
 * in `<userData>/secrets.keychain.json` (0600). Values are decrypted once at start and held in memory, like the
 * core's file store. The CLI cannot read this file (no keychain access outside Electron); it uses secrets.json.
 */
export class KeychainSecretStore implements DesktopSecretStore {
  readonly backing = 'keychain' as const;
  private readonly values = new Map<string, string>();
  /** Entries this keychain cannot decrypt (another machine or user?): kept on disk as they are, not listed. */
  private readonly undecryptable = new Map<string, string>();
  private writing: Promise<void> = Promise.resolve();

  private constructor(
    private readonly file: string,
    private readonly log: (line: string) => void,
  ) {}

  static async open(file: string, log: (line: string) => void): Promise<KeychainSecretStore> {
    const store = new KeychainSecretStore(file, log);
    let text: string | undefined;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      return store; // none yet
    }
    const parsed = fileSchema.safeParse(JSON.parse(text));
    if (!parsed.success) throw new Error(`${file} is not a Switchboard secrets file; move it away to start over.`);
    let reEncrypt = false;
    for (const [name, cipher] of Object.entries(parsed.data.values)) {
      try {
        const { result, shouldReEncrypt } = await safeStorage.decryptStringAsync(Buffer.from(cipher, 'base64'));
        store.values.set(name, result);
        reEncrypt ||= shouldReEncrypt;
      } catch (error) {
        store.undecryptable.set(name, cipher);
        log(`secret ${name} could not be decrypted with this keychain (${String(error)}); keeping it untouched`);
      }
    }
    if (reEncrypt) store.persist();
    return store;
  }

  list(): string[] {
    return [...this.values.keys()].sort();
  }

  get(name: string): string | undefined {
    return this.values.get(name);
  }

  set(name: string, value: string): void {
    assertSecretName(name);
    this.values.set(name, value);
    this.undecryptable.delete(name);
    this.persist();
  }

  delete(name: string): boolean {
    const had = this.values.delete(name) || this.undecryptable.delete(name);
    if (had) this.persist();
    return had;
  }

  flush(): Promise<void> {
    return this.writing;
  }

  private persist(): void {
    this.writing = this.writing.then(() => this.write()).catch((error: unknown) => this.log(`could not save secrets to ${this.file}: ${String(error)}`));
  }

  private async write(): Promise<void> {
    const values: Record<string, string> = Object.fromEntries(this.undecryptable);
    for (const [name, value] of this.values) {
      values[name] = (await safeStorage.encryptStringAsync(value)).toString('base64');
    }
    // Sync form: the async one hooks signals mid-write and would turn a quit signal into an unclean exit.
    writeFileAtomic.sync(this.file, `${JSON.stringify({ version: 1, values }, null, 2)}\n`, { mode: 0o600 });
  }
}

/**
 * The core's 0600 file store, saying why the keychain is not used. Its file is the CLI's too: `location` and
 * `generation` pass through, so the host follows another process's changes of it (see followSecretsFile).
 */
class FileFallbackSecretStore extends DelegatingSecretStore implements DesktopSecretStore {
  constructor(
    inner: FileSecretStore,
    private readonly why: string,
  ) {
    super(inner);
  }
  override get warning(): string {
    return this.why;
  }
  flush(): Promise<void> {
    return Promise.resolve();
  }
}

/** The keychain store when the OS offers real encryption; otherwise the 0600 file, with the reason. Call after `ready`. */
export async function openSecretStore(dataDir: string, log: (line: string) => void): Promise<DesktopSecretStore> {
  const plainFile = secretsFileOf(dataDir);
  const fallback = (why: string): DesktopSecretStore =>
    new FileFallbackSecretStore(new FileSecretStore(plainFile), `Secrets are kept in ${plainFile} (readable only by you, mode 0600), not encrypted: ${why}.`);
  // On Linux without a keyring, safeStorage "encrypts" with a fixed key: no better than the 0600 file, and it would
  // pretend to be the keychain.
  if (process.platform === 'linux' && safeStorage.getSelectedStorageBackend() === 'basic_text') {
    return fallback('no OS keyring (libsecret or KWallet) was found');
  }
  if (!(await safeStorage.isAsyncEncryptionAvailable())) return fallback('the OS keychain is not available');
  try {
    return await KeychainSecretStore.open(join(dataDir, 'secrets.keychain.json'), log);
  } catch (error) {
    log(`keychain secrets unavailable: ${String(error)}`);
    return fallback(`the keychain secrets file could not be read (${error instanceof Error ? error.message : String(error)})`);
  }
}
