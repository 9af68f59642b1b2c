import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileSecretStore } from './store';
import { tempDir } from '../../test-support/processes';

describe('FileSecretStore shared by several processes (serve running while login / secret set run)', () => {
  it("one store's change never drops another's, and each sees the other's at once", () => {
    const file = join(tempDir('secrets-'), 'secrets.json');
    const serve = new FileSecretStore(file);
    const login = new FileSecretStore(file);
    serve.set('github_token', 'from-serve');
    login.set('oauth_refresh', 'from-login'); // login never saw github_token in memory before this
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ github_token: 'from-serve', oauth_refresh: 'from-login' });
    expect(serve.get('oauth_refresh')).toBe('from-login');
    serve.set('another', 'x'); // written on top of login's value, not over it
    expect(login.list()).toEqual(['another', 'github_token', 'oauth_refresh']);
    expect(login.delete('github_token')).toBe(true);
    expect(serve.get('github_token')).toBeUndefined();
    expect(serve.delete('github_token')).toBe(false);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('a hand edit that broke the file is not written over: the change is refused saying what to do, reads keep the last values', () => {
    const file = join(tempDir('secrets-'), 'secrets.json');
    const store = new FileSecretStore(file);
    store.set('kept', 'v');
    writeFileSync(file, '{ "kept": "v", oops');
    chmodSync(file, 0o600);
    expect(store.get('kept')).toBe('v');
    expect(() => store.set('new', 'x')).toThrow(/secrets\.json cannot be read .*does not write over it\. Fix the file/);
    expect(readFileSync(file, 'utf8')).toBe('{ "kept": "v", oops');
  });
});
