import { readFileSync } from 'node:fs';
import { writeFileAtomicSync } from './data-files';

/**
 * Where `${secret:NAME}` values live. The desktop app encrypts them with the OS keychain (Electron
 * safeStorage); the CLI and headless mode keep them in a 0600 file, and say so.
 */
export interface SecretStore {
  readonly backing: 'keychain' | 'file' | 'memory';
  /** Shown to the user where it matters (e.g. "stored in a 0600 file, not in the OS keychain"). */
  readonly warning?: string;
  list(): string[];
  get(name: string): string | undefined;
  set(name: string, value: string): void;
  delete(name: string): boolean;
}

export const secretNamePattern = /^[A-Za-z_][A-Za-z0-9_.-]{0,127}$/;

export function assertSecretName(name: string): void {
  if (!secretNamePattern.test(name)) {
    throw new Error(`"${name}" is not a usable secret name: use letters, digits, _ . - (starting with a letter or _), at most 128 characters.`);
  }
}

export class MemorySecretStore implements SecretStore {
  readonly backing = 'memory' as const;
  private readonly values = new Map<string, string>();
  list(): string[] {
    return [...this.values.keys()].sort();
  }
  get(name: string): string | undefined {
    return this.values.get(name);
  }
  set(name: string, value: string): void {
    assertSecretName(name);
    this.values.set(name, value);
  }
  delete(name: string): boolean {
    return this.values.delete(name);
  }
}

/** CLI / headless: a JSON file readable only by the user (0600). Not keychain-backed, and it says so. */
export class FileSecretStore implements SecretStore {
  readonly backing = 'file' as const;
  readonly warning: string;
  private values: Record<string, string> = {};

  constructor(private readonly file: string) {
    this.warning = `Secrets are kept in ${file} (readable only by you, mode 0600), not in the OS keychain. The desktop app encrypts them with the keychain instead.`;
    try {
      const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
      if (typeof parsed === 'object' && parsed !== null) {
        for (const [k, v] of Object.entries(parsed)) if (typeof v === 'string') this.values[k] = v;
      }
    } catch {
      // none yet
    }
  }

  list(): string[] {
    return Object.keys(this.values).sort();
  }
  get(name: string): string | undefined {
    return Object.hasOwn(this.values, name) ? this.values[name] : undefined;
  }
  set(name: string, value: string): void {
    assertSecretName(name);
    this.values[name] = value;
    this.save();
  }
  delete(name: string): boolean {
    if (!Object.hasOwn(this.values, name)) return false;
    delete this.values[name];
    this.save();
    return true;
  }
  private save(): void {
    writeFileAtomicSync(this.file, JSON.stringify(this.values, null, 2));
  }
}
