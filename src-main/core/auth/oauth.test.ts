import { generateKeyPairSync } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../host';
import { nodeRuntime } from '../config/runtime';
import { FileSecretStore } from '../secrets/store';
import { StaticSettings } from '../settings/store';
import { freePort, tempDir, waitFor } from '../../test-support/processes';
import { followInBrowser, startOAuthFixture, type OAuthFixture } from '../../test-support/oauth-fixture';

/*
 * Sign-in against a real authorization server (oidc-provider) protecting an MCP server on loopback: the
 * needs-login status, the login with its browser step scripted, tokens as secrets surviving a restart, the
 * silent refresh, step-up, sign-out, and hostile metadata refused.
 */

interface Rig {
  dir: string;
  config: string;
}

function rig(servers: Record<string, unknown>): Rig {
  const dir = tempDir();
  const config = join(dir, 'mcp.json');
  writeFileSync(config, JSON.stringify({ mcpServers: servers }));
  return { dir, config };
}

/** A host over the rig's config and data folder, settled (every server has reached its first status). `watch`: as `serve` and the app (the config and secrets files followed). */
async function open(r: Rig, watch = false): Promise<Host> {
  const host = await createHost({
    mode: 'headless',
    configPath: r.config,
    dataDir: r.dir,
    envDir: r.dir,
    secrets: new FileSecretStore(join(r.dir, 'secrets.json')),
    settings: new StaticSettings(),
    runtime: nodeRuntime(),
    policy: { pingIntervalMs: 0 },
    watchConfig: watch,
  });
  await host.settled();
  return host;
}

/** Signs in with the browser step scripted (alice signs in and consents), and waits for the server to reconnect. */
async function signIn(host: Host, server = 'remote'): Promise<void> {
  await host.auth.login(server, { noBrowser: true, onAuthorizationUrl: (url) => void followInBrowser(url) });
  await host.settled(server);
}

/** The JSON of the first secret whose key starts with `prefix` (`oauth.tokens.`, `oauth.client.`) in the rig's store. */
function storedJson(r: Rig, prefix: string): Record<string, unknown> {
  const stored = JSON.parse(readFileSync(join(r.dir, 'secrets.json'), 'utf8')) as Record<string, string>;
  return JSON.parse(Object.entries(stored).find(([k]) => k.startsWith(prefix))?.[1] ?? '{}') as Record<string, unknown>;
}

const viewOf = async (host: Host, name: string) => (await host.api['servers:list']()).find((v) => v.name === name);

describe('OAuth sign-in (oidc-provider on loopback)', () => {
  let fixture: OAuthFixture;
  let host: Host | undefined;
  beforeAll(async () => {
    fixture = await startOAuthFixture();
  });
  afterAll(async () => {
    await fixture?.stop();
  });
  afterEach(async () => {
    await host?.dispose();
    host = undefined;
  });

  it('a protected server is needs-login (not an error) with the AS host and scopes; login signs in; tokens survive a restart; logout revokes', async () => {
    const r = rig({ remote: { url: fixture.mcp } });
    host = await open(r);
    const before = await viewOf(host, 'remote');
    expect(before?.status).toBe('needs-login');
    expect(before?.auth).toMatchObject({ state: 'signed-out', issuerHost: new URL(fixture.issuer).host, scopes: ['mcp:read'] });
    expect(before?.error).toMatch(/sign in at 127\.0\.0\.1:\d+ for mcp:read/);

    const shown: string[] = [];
    const result = await host.auth.login('remote', {
      noBrowser: true,
      onAuthorizationUrl: (url) => {
        shown.push(url.href);
        // The "browser": the authorization server signs alice in, consents, redirects to the loopback listener.
        void followInBrowser(url);
      },
    });
    expect(result.outcome).toBe('signed-in');
    expect(shown).toHaveLength(1);
    const authorize = new URL(shown[0] ?? '');
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('resource')).toBe(fixture.mcp);
    expect(authorize.searchParams.get('state')).toMatch(/^[\w-]{20,}$/);
    // Same port at registration and authorization: the registered redirect is the one sent.
    expect(authorize.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);

    await host.settled('remote');
    const after = await viewOf(host, 'remote');
    expect(after?.status).toBe('ready');
    expect(after?.auth?.state).toBe('signed-in');
    expect(after?.auth?.grantedScopes).toContain('mcp:read');
    const who = await host.api['tools:call']({ server: 'remote', tool: 'whoami', args: {} });
    expect(JSON.stringify(who.content)).toContain('alice');

    // Tokens are secrets: in the store (never the config), and not in plain sight in the secrets list a person edits.
    const stored = readFileSync(join(r.dir, 'secrets.json'), 'utf8');
    expect(stored).toMatch(/oauth\.tokens\./);
    expect(readFileSync(r.config, 'utf8')).not.toMatch(/access_token|refresh_token/);
    const accessToken = (storedJson(r, 'oauth.tokens.').tokens as { access_token: string }).access_token;
    // The redirect URI registered (DCR) is the one the authorization request carried: same loopback port.
    const registered = storedJson(r, 'oauth.client.').client as { redirect_uris: string[]; application_type?: string };
    expect(registered.redirect_uris).toEqual([authorize.searchParams.get('redirect_uri')]);
    expect(accessToken.length).toBeGreaterThan(10);
    // …and redacted from the trace and the debug bundle.
    const trace = await host.api['trace:list']({ server: 'remote' });
    expect(JSON.stringify(trace)).not.toContain(accessToken);
    const bundle = await host.api['debug:bundle']({});
    expect(readFileSync(bundle.path, 'utf8')).not.toContain(accessToken);

    // A restart (a new host over the same data folder): no sign-in needed.
    await host.dispose();
    host = await open(r);
    expect((await viewOf(host, 'remote'))?.status).toBe('ready');

    const revocationsBefore = (await fixture.stats()).revocations;
    const out = await host.auth.logout('remote');
    expect(out).toEqual({ removed: true, revoked: true });
    expect((await fixture.stats()).revocations).toBe(revocationsBefore + 1);
    await host.settled('remote');
    expect((await viewOf(host, 'remote'))?.status).toBe('needs-login');
    expect(readFileSync(join(r.dir, 'secrets.json'), 'utf8')).not.toMatch(/oauth\.tokens\./);
  });

  it('a sign-in another process makes (`switchboard login` while `serve` runs) is followed: the waiting server connects', async () => {
    const r = rig({ remote: { url: fixture.mcp } });
    host = await open(r, true);
    expect((await viewOf(host, 'remote'))?.status).toBe('needs-login');
    const other = await open(r); // the CLI's `login`: another host over the same data folder
    try {
      await signIn(other);
      expect((await viewOf(other, 'remote'))?.status).toBe('ready');
    } finally {
      await other.dispose();
    }
    await waitFor(async () => (await viewOf(host!, 'remote'))?.status === 'ready', 10_000, 'the waiting server to connect with the stored sign-in');
    const who = await host.api['tools:call']({ server: 'remote', tool: 'whoami', args: {} });
    expect(JSON.stringify(who.content)).toContain('alice');
  });

  it('a server of this host that tries again while another process signs in does not spoil that sign-in', async () => {
    const r = rig({ remote: { url: fixture.mcp } });
    host = await open(r);
    const other = await open(r);
    try {
      const result = await other.auth.login('remote', {
        noBrowser: true,
        onAuthorizationUrl: async (url) => {
          // Between the authorization URL and the code exchange, this host's server connects again (a restart: its
          // background flow meets the 401 and stops at the browser step), then the person finishes the sign-in.
          await host?.api['servers:restart']('remote');
          await host?.settled('remote');
          expect((await viewOf(host!, 'remote'))?.status).toBe('needs-login');
          void followInBrowser(url);
        },
      });
      expect(result.outcome).toBe('signed-in');
    } finally {
      await other.dispose();
    }
  });

  it('refreshes silently: an access token within a minute of expiry is refreshed before the request, also after a restart, without a sign-in', async () => {
    // Tokens that live 5 s are within the refresh window (a minute) from the start.
    const short = await startOAuthFixture(['--access-ttl', '5']);
    try {
      const r = rig({ remote: { url: short.mcp } });
      host = await open(r);
      await signIn(host);
      const view = await viewOf(host, 'remote');
      expect(view?.status).toBe('ready');
      expect(view?.auth?.expiresAt).toBeTypeOf('number');
      const refreshes = (await short.stats()).grants.refresh_token ?? 0;
      const result = await host.api['tools:call']({ server: 'remote', tool: 'whoami', args: {} });
      expect(JSON.stringify(result.content)).toContain('alice');
      expect((await short.stats()).grants.refresh_token ?? 0).toBeGreaterThan(refreshes);
      // A restart with the refreshed (rotated) tokens: still no sign-in.
      await host.dispose();
      host = await open(r);
      expect((await viewOf(host, 'remote'))?.status).toBe('ready');
      expect((await short.stats()).authorizations).toBe(1);
    } finally {
      await host?.dispose();
      host = undefined;
      await short.stop();
    }
  });

  it('a revoked refresh token turns the server to needs-login once (tokens dropped), and a sign-in recovers', async () => {
    const short = await startOAuthFixture(['--access-ttl', '5']);
    try {
      const r = rig({ remote: { url: short.mcp } });
      host = await open(r);
      await signIn(host);
      // The authorization server revokes the grant behind Switchboard's back (an admin, a password change…).
      const tokens = storedJson(r, 'oauth.tokens.').tokens as { refresh_token: string };
      const client = storedJson(r, 'oauth.client.').client as { client_id: string };
      const revoked = await fetch(`${short.issuer}/token/revocation`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: tokens.refresh_token, token_type_hint: 'refresh_token', client_id: client.client_id }).toString(),
      });
      expect(revoked.ok).toBe(true);
      await expect(host.api['tools:call']({ server: 'remote', tool: 'whoami', args: {} })).rejects.toMatchObject({ code: 'server-not-ready' });
      const view = await viewOf(host, 'remote');
      expect(view?.status).toBe('needs-login');
      expect(view?.auth?.state).toBe('signed-out');
      await signIn(host);
      expect((await viewOf(host, 'remote'))?.status).toBe('ready');
    } finally {
      await host?.dispose();
      host = undefined;
      await short.stop();
    }
  });

  it('step-up: insufficient_scope asks for a sign-in with the union of scopes, and then the call works', async () => {
    const r = rig({ remote: { url: fixture.mcp } });
    host = await open(r);
    let firstRedirect = '';
    await host.auth.login('remote', {
      noBrowser: true,
      onAuthorizationUrl: (url) => {
        firstRedirect = url.searchParams.get('redirect_uri') ?? '';
        void followInBrowser(url);
      },
    });
    await host.settled('remote');
    await expect(host.api['tools:call']({ server: 'remote', tool: 'write', args: {} })).rejects.toMatchObject({ code: 'server-not-ready' });
    const view = await viewOf(host, 'remote');
    expect(view?.auth?.stepUpScopes).toEqual(expect.arrayContaining(['mcp:read', 'mcp:write']));
    const shown: string[] = [];
    await host.auth.login('remote', {
      noBrowser: true,
      onAuthorizationUrl: (url) => {
        shown.push(url.searchParams.get('scope') ?? '');
        // The registered port again (RFC 8252: the redirect URI the client was registered with).
        expect(url.searchParams.get('redirect_uri')).toBe(firstRedirect);
        void followInBrowser(url);
      },
    });
    expect(shown[0]?.split(' ')).toEqual(expect.arrayContaining(['mcp:read', 'mcp:write']));
    await host.settled('remote');
    const written = await host.api['tools:call']({ server: 'remote', tool: 'write', args: {} });
    expect(JSON.stringify(written.content)).toContain('written');
  });

  it('a pre-registered client (oauth.clientId + a ${secret:} client secret) on oauth.redirectPort signs in without registering', async () => {
    const port = await freePort();
    const pre = await startOAuthFixture(['--preregistered', String(port)]);
    try {
      const r = rig({
        remote: {
          url: pre.mcp,
          oauth: { clientId: 'switchboard-test', clientSecret: '${secret:fixture_client_secret}', redirectPort: port, scopes: ['mcp:read'] },
        },
      });
      new FileSecretStore(join(r.dir, 'secrets.json')).set('fixture_client_secret', 's3cret-client-value');
      host = await open(r);
      expect((await viewOf(host, 'remote'))?.status).toBe('needs-login');
      let redirect = '';
      await host.auth.login('remote', {
        noBrowser: true,
        onAuthorizationUrl: (url) => {
          redirect = url.searchParams.get('redirect_uri') ?? '';
          void followInBrowser(url);
        },
      });
      expect(redirect).toBe(`http://127.0.0.1:${port}/callback`);
      await host.settled('remote');
      expect((await viewOf(host, 'remote'))?.status).toBe('ready');
      expect((await pre.stats()).registrations).toBe(0);
    } finally {
      await host?.dispose();
      host = undefined;
      await pre.stop();
    }
  });
});

describe('an authorization server without dynamic registration', () => {
  it('login says to register Switchboard (with the redirect URI to register) and to enter the client id; auth:set-client saves it and the sign-in then works', async () => {
    const port = await freePort();
    const closed = await startOAuthFixture(['--no-dcr', '--preregistered', String(port)]);
    let host: Host | undefined;
    try {
      const r = rig({ remote: { url: closed.mcp } });
      host = await open(r);
      const failure = host.auth.login('remote', { noBrowser: true, onAuthorizationUrl: () => undefined });
      await expect(failure).rejects.toMatchObject({
        code: 'request-failed',
        data: { server: 'remote', needsClient: true, redirectUri: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/callback$/) },
      });
      await expect(failure).rejects.toThrow(
        /does not let apps register themselves\. Register Switchboard there as a native app with the redirect URI http:\/\/127\.0\.0\.1:\d+\/callback/,
      );
      // The person registered it (here: the fixture's pre-registered client) and enters it in the form.
      await host.api['auth:set-client']('remote', { clientId: 'switchboard-test', clientSecret: 's3cret-client-value', redirectPort: port });
      const entry = JSON.parse(readFileSync(r.config, 'utf8')).mcpServers.remote as { oauth: Record<string, unknown> };
      expect(entry.oauth).toEqual({ clientId: 'switchboard-test', clientSecret: '${secret:oauth-client-secret.remote}', redirectPort: port });
      expect(readFileSync(r.config, 'utf8')).not.toContain('s3cret-client-value');
      await host.settled('remote');
      await signIn(host);
      expect((await viewOf(host, 'remote'))?.status).toBe('ready');
    } finally {
      await host?.dispose();
      await closed.stop();
    }
  });
});

describe('hostile authorization server metadata', () => {
  for (const kind of ['file', 'shell'] as const) {
    it(`an authorization_endpoint that is ${kind === 'file' ? 'a file: URL' : 'full of shell metacharacters'} is refused before registration and never opened`, async () => {
      const evil = await startOAuthFixture(['--malicious', kind]);
      let host: Host | undefined;
      try {
        const r = rig({ remote: { url: evil.mcp } });
        host = await open(r);
        const view = await viewOf(host, 'remote');
        expect(view?.status).toBe('error');
        expect(view?.error).toMatch(/refused/);
        const opened: string[] = [];
        await expect(host.auth.login('remote', { noBrowser: true, onAuthorizationUrl: (url) => void opened.push(url.href) })).rejects.toThrow(/refused/);
        expect(opened).toEqual([]);
        expect((await evil.stats()).evilRegistrations).toBe(0);
      } finally {
        await host?.dispose();
        await evil.stop();
      }
    });
  }
});

describe('machine-to-machine entries (oauth.grant client_credentials)', () => {
  it('client_secret_basic and private_key_jwt get tokens without a person, and the tools work', async () => {
    const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = { ...publicKey.export({ format: 'jwk' }), alg: 'ES256', use: 'sig', kid: 'test-key' };
    const m2m = await startOAuthFixture(['--m2m-jwk', JSON.stringify(jwk)]);
    let host: Host | undefined;
    try {
      const r = rig({
        basic: { url: m2m.mcp, oauth: { grant: 'client_credentials', clientId: 'machine-basic', clientSecret: '${secret:m2m_secret}', issuer: m2m.issuer } },
        jwt: {
          url: m2m.mcp,
          oauth: { grant: 'client_credentials', clientId: 'machine-jwt', privateKey: '${secret:m2m_key}', signingAlgorithm: 'ES256', issuer: m2m.issuer },
        },
      });
      const store = new FileSecretStore(join(r.dir, 'secrets.json'));
      store.set('m2m_secret', 'm2m-secret-value');
      store.set('m2m_key', privateKey.export({ format: 'pem', type: 'pkcs8' }).toString());
      host = await open(r);
      for (const name of ['basic', 'jwt']) {
        const view = await viewOf(host, name);
        expect(view?.status, view?.error).toBe('ready');
        expect(view?.auth?.state).toBe('signed-in');
        const who = await host.api['tools:call']({ server: name, tool: 'whoami', args: {} });
        expect(JSON.stringify(who.content)).toContain('mcp:read');
      }
      expect((await m2m.stats()).grants.client_credentials).toBeGreaterThanOrEqual(2);
      await expect(host.auth.login('basic', { noBrowser: true })).rejects.toMatchObject({ code: 'invalid-argument' });
    } finally {
      await host?.dispose();
      await m2m.stop();
    }
  });
});
