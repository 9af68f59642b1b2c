import { describe, expect, it } from 'vitest';
import { MemorySecretStore } from '../secrets/store';
import { isOAuthSecretName, OAuthStore, oauthSecretValues } from './store';

describe('OAuthStore (OAuth records as secrets, keyed by issuer + resource + client)', () => {
  it('keeps clients per issuer+resource and tokens per issuer+resource+client; another issuer sees none of them', () => {
    const secrets = new MemorySecretStore();
    const store = new OAuthStore(secrets);
    const resource = 'https://mcp.example.com/mcp';
    store.saveClient('https://as-a.example', resource, { client_id: 'a-client', client_secret: 'a-client-secret-value' });
    store.saveTokens(
      'https://as-a.example',
      resource,
      'a-client',
      { access_token: 'access-value-1', token_type: 'Bearer', refresh_token: 'refresh-value-1' },
      1000,
    );
    store.updateResource(resource, { issuer: 'https://as-a.example', clientId: 'a-client' });
    expect(store.client('https://as-a.example', resource)?.client_id).toBe('a-client');
    expect(store.client('https://as-b.example', resource)).toBeUndefined();
    expect(store.tokens('https://as-a.example', resource, 'other-client')).toBeUndefined();
    expect(store.tokens('https://as-a.example', 'https://other.example/mcp', 'a-client')).toBeUndefined();
    expect(store.tokens('https://as-a.example', resource, 'a-client')).toEqual({
      tokens: expect.objectContaining({ access_token: 'access-value-1' }),
      savedAt: 1000,
    });
    // Every record is a secret with a name of the store's alphabet, none of them the person's to edit.
    expect(secrets.list().every(isOAuthSecretName)).toBe(true);
    expect(oauthSecretValues(secrets).sort()).toEqual(['a-client-secret-value', 'access-value-1', 'refresh-value-1']);
    // Signing out forgets the tokens and the binding, and keeps the registration for the next sign-in.
    store.forgetResource(resource);
    expect(store.tokens('https://as-a.example', resource, 'a-client')).toBeUndefined();
    expect(store.resource(resource)).toBeUndefined();
    expect(store.client('https://as-a.example', resource)?.client_id).toBe('a-client');
  });

  it('a record that is not ours (or not JSON) reads as absent instead of throwing', () => {
    const secrets = new MemorySecretStore();
    const store = new OAuthStore(secrets);
    store.saveClient('https://as.example', 'https://r.example/', { client_id: 'c' });
    const [name] = secrets.list();
    secrets.set(name ?? 'x', 'not json');
    expect(store.client('https://as.example', 'https://r.example/')).toBeUndefined();
    expect(oauthSecretValues(secrets)).toEqual([]);
  });
});
