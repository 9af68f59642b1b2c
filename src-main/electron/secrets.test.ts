import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FileSecretStore } from '../core/secrets/store';

// A stand-in keychain: reversible, recognisable, and able to refuse (another machine's ciphertext).
const keychain = vi.hoisted(() => ({
  backend: 'gnome_libsecret' as string,
  available: true,
  getSelectedStorageBackend: () => keychain.backend,
  isAsyncEncryptionAvailable: async () => keychain.available,
  encryptStringAsync: async (text: string) => Buffer.from(`K:${Buffer.from(text).toString('hex')}`),
  decryptStringAsync: async (data: Buffer) => {
    const text = data.toString();
    if (!text.startsWith('K:')) throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
    return { result: Buffer.from(text.slice(2), 'hex').toString(), shouldReEncrypt: false };
  },
}));
// Never load the real package here: its entry point tries to download Electron.
vi.mock('electron', () => ({ safeStorage: keychain }));

const { openSecretStore } = await import('./secrets');

let dir: string;
const log = (): void => {};
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sb-secrets-'));
  keychain.backend = 'gnome_libsecret';
  keychain.available = true;
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('openSecretStore', () => {
  it('keeps values encrypted on disk (0600) and reads them back', async () => {
    const store = await openSecretStore(dir, log);
    expect(store.backing).toBe('keychain');
    store.set('API_TOKEN', 's3cret');
    await store.flush();
    const file = join(dir, 'secrets.keychain.json');
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain('s3cret');
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);

    const again = await openSecretStore(dir, log);
    expect(again.list()).toEqual(['API_TOKEN']);
    expect(again.get('API_TOKEN')).toBe('s3cret');
    expect(again.delete('API_TOKEN')).toBe(true);
    await again.flush();
    expect((await openSecretStore(dir, log)).list()).toEqual([]);
  });

  it('rejects bad names like the core stores', async () => {
    const store = await openSecretStore(dir, log);
    expect(() => store.set('not ok', 'x')).toThrow(/not a usable secret name/);
  });

  it('keeps entries it cannot decrypt, untouched', async () => {
    const file = join(dir, 'secrets.keychain.json');
    writeFileSync(file, JSON.stringify({ version: 1, values: { FOREIGN: Buffer.from('other').toString('base64') } }));
    const store = await openSecretStore(dir, log);
    expect(store.list()).toEqual([]);
    store.set('MINE', 'v');
    await store.flush();
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { values: Record<string, string> };
    expect(Object.keys(saved.values).sort()).toEqual(['FOREIGN', 'MINE']);
    expect(saved.values.FOREIGN).toBe(Buffer.from('other').toString('base64'));
  });

  it('falls back to the 0600 file, and says why, without a real keyring', async () => {
    keychain.backend = 'basic_text';
    const store = await openSecretStore(dir, log);
    expect(store.backing).toBe('file');
    expect(store.warning).toMatch(/no OS keyring/);
    store.set('A', 'plain');
    expect(JSON.parse(readFileSync(join(dir, 'secrets.json'), 'utf8'))).toEqual({ A: 'plain' });
    // The CLI's file: the host follows another process's writes of it by these two.
    expect(store.location).toBe(join(dir, 'secrets.json'));
    const seen = store.generation;
    new FileSecretStore(join(dir, 'secrets.json')).set('B', 'from the CLI');
    expect(store.list()).toEqual(['A', 'B']);
    expect(store.generation).not.toBe(seen);

    keychain.backend = 'gnome_libsecret';
    keychain.available = false;
    expect((await openSecretStore(dir, log)).warning).toMatch(/keychain is not available/);
  });
});
