import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { auth } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { serverEntrySchema } from '../../../src-shared/schemas/config';
import { MemorySecretStore } from '../secrets/store';
import { MachineAuth } from './machine';

/*
 * Cross-app access (SEP-990) against a loopback enterprise IdP (RFC 8693 token exchange) and the MCP server's
 * authorization server (RFC 7523 JWT bearer), plus the protected resource metadata that names the latter.
 * oidc-provider has no token-exchange or JWT-bearer grant of its own (only custom grant hooks one would write
 * oneself), so these are small node:http endpoints that record what they were sent.
 */

interface Endpoint {
  url: string;
  requests: { path: string; authorization?: string; form: URLSearchParams }[];
  close(): Promise<void>;
}

const open: Endpoint[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((e) => e.close()));
});

async function endpoint(
  handle: (path: string, form: URLSearchParams, req: IncomingMessage, base: string) => { status?: number; json: unknown },
): Promise<Endpoint> {
  const requests: Endpoint['requests'] = [];
  let base = '';
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', base).pathname;
      const form = new URLSearchParams(req.method === 'POST' ? body : '');
      requests.push({ path, form, ...(req.headers.authorization !== undefined ? { authorization: req.headers.authorization } : {}) });
      const answer = handle(path, form, req, base);
      res.writeHead(answer.status ?? 200, { 'content-type': 'application/json' }).end(JSON.stringify(answer.json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const e: Endpoint = { url: base, requests, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  open.push(e);
  return e;
}

const notFound = { status: 404, json: { error: 'not_found' } };

/** IdP + AS + resource metadata; the IdP exchanges only the ID token "the-id-token". */
async function rig() {
  const idp = await endpoint((path, form, _req, base) => {
    if (path === '/.well-known/oauth-authorization-server') {
      return {
        json: {
          issuer: base,
          authorization_endpoint: `${base}/authorize`,
          token_endpoint: `${base}/token`,
          response_types_supported: ['code'],
          grant_types_supported: ['urn:ietf:params:oauth:grant-type:token-exchange'],
        },
      };
    }
    if (path !== '/token') return notFound;
    if (form.get('subject_token') !== 'the-id-token') return { status: 400, json: { error: 'invalid_grant', error_description: 'ID token expired' } };
    return {
      json: { access_token: `id-jag-for:${form.get('subject_token') ?? ''}`, issued_token_type: 'urn:ietf:params:oauth:token-type:id-jag', token_type: 'N_A' },
    };
  });
  const as = await endpoint((path, form, _req, base) => {
    if (path === '/.well-known/oauth-authorization-server') {
      return {
        json: {
          issuer: base,
          authorization_endpoint: `${base}/authorize`,
          token_endpoint: `${base}/token`,
          response_types_supported: ['code'],
          grant_types_supported: ['urn:ietf:params:oauth:grant-type:jwt-bearer'],
          token_endpoint_auth_methods_supported: ['client_secret_basic'],
        },
      };
    }
    if (path !== '/token') return notFound;
    if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer' || form.get('assertion') !== 'id-jag-for:the-id-token')
      return { status: 400, json: { error: 'invalid_grant' } };
    return { json: { access_token: 'mcp-access-token', token_type: 'Bearer', expires_in: 3600, scope: 'mcp:read' } };
  });
  const rs = await endpoint((path, _form, _req, base) =>
    path === '/.well-known/oauth-protected-resource/mcp'
      ? { json: { resource: `${base}/mcp`, authorization_servers: [as.url], scopes_supported: ['mcp:read'] } }
      : notFound,
  );
  return { idp, as, rs };
}

function machineAuth(entry: unknown, secrets: MemorySecretStore): MachineAuth {
  return new MachineAuth({ name: 'enterprise', entry: serverEntrySchema.parse(entry) }, secrets, () => undefined);
}

function secrets(): MemorySecretStore {
  const store = new MemorySecretStore();
  store.set('mcp_secret', 'mcp-client-secret');
  store.set('idp_secret', 'idp-client-secret');
  store.set('id_token', 'the-id-token');
  return store;
}

describe('oauth.grant cross-app-access (SEP-990)', () => {
  it('exchanges the ID token at the IdP for an ID-JAG (RFC 8693), then trades it at the authorization server (RFC 7523, client_secret_basic)', async () => {
    const { idp, as, rs } = await rig();
    const entry = {
      url: `${rs.url}/mcp`,
      oauth: {
        grant: 'cross-app-access',
        clientId: 'mcp-client',
        clientSecret: '${secret:mcp_secret}',
        scopes: ['mcp:read'],
        idp: { tokenEndpoint: `${idp.url}/token`, clientId: 'idp-client', clientSecret: '${secret:idp_secret}', idToken: '${secret:id_token}' },
      },
    };
    const m = machineAuth(entry, secrets());
    const { provider } = m.transportAuth();
    expect(await auth(provider, { serverUrl: `${rs.url}/mcp` })).toBe('AUTHORIZED');
    expect((await provider.tokens())?.access_token).toBe('mcp-access-token');
    expect(m.view()).toMatchObject({ state: 'signed-in', grantedScopes: ['mcp:read'] });

    const exchange = idp.requests.find((r) => r.path === '/token')?.form;
    expect(Object.fromEntries(exchange ?? [])).toMatchObject({
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      subject_token: 'the-id-token',
      subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
      requested_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
      audience: as.url,
      resource: `${rs.url}/mcp`,
      client_id: 'idp-client',
      client_secret: 'idp-client-secret',
    });
    const bearer = as.requests.find((r) => r.path === '/token');
    expect(bearer?.form.get('assertion')).toBe('id-jag-for:the-id-token');
    expect(bearer?.authorization).toBe(`Basic ${Buffer.from('mcp-client:mcp-client-secret').toString('base64')}`);
  });

  it("finds the IdP's token endpoint from its issuer (RFC 8414 discovery); a public IdP client sends no secret", async () => {
    const { idp, rs } = await rig();
    const entry = {
      url: `${rs.url}/mcp`,
      oauth: {
        grant: 'cross-app-access',
        clientId: 'mcp-client',
        clientSecret: '${secret:mcp_secret}',
        idp: { issuer: idp.url, clientId: 'idp-client', idToken: '${secret:id_token}' },
      },
    };
    const { provider } = machineAuth(entry, secrets()).transportAuth();
    expect(await auth(provider, { serverUrl: `${rs.url}/mcp` })).toBe('AUTHORIZED');
    expect(idp.requests.map((r) => r.path)).toEqual(['/.well-known/oauth-authorization-server', '/token']);
    const exchange = idp.requests[1]?.form;
    expect(exchange?.get('client_id')).toBe('idp-client');
    expect(exchange?.has('client_secret')).toBe(false);
  });

  it('an IdP that refuses the exchange gives an error naming the IdP and the ID token secret; a fresh ID token there works at the next session', async () => {
    const { idp, rs } = await rig();
    const entry = {
      url: `${rs.url}/mcp`,
      oauth: {
        grant: 'cross-app-access',
        clientId: 'mcp-client',
        clientSecret: '${secret:mcp_secret}',
        idp: { tokenEndpoint: `${idp.url}/token`, clientId: 'idp-client', idToken: '${secret:id_token}' },
      },
    };
    const store = secrets();
    store.set('id_token', 'an-expired-id-token');
    const m = machineAuth(entry, store);
    const failure: unknown = await auth(m.transportAuth().provider, { serverUrl: `${rs.url}/mcp` }).catch((error: unknown) => error);
    const text = m.refused(failure);
    expect(text).toContain(`${idp.url}/token`);
    expect(text).toContain('${secret:id_token}');
    store.set('id_token', 'the-id-token');
    expect(await auth(m.transportAuth().provider, { serverUrl: `${rs.url}/mcp` })).toBe('AUTHORIZED');
  });

  it('an unset ID token secret is a config problem saying which secret to set', () => {
    const store = secrets();
    store.delete('id_token');
    const m = machineAuth(
      {
        url: 'http://127.0.0.1:1/mcp',
        oauth: {
          grant: 'cross-app-access',
          clientId: 'c',
          clientSecret: '${secret:mcp_secret}',
          idp: { issuer: 'http://127.0.0.1:1', clientId: 'i', idToken: '${secret:id_token}' },
        },
      },
      store,
    );
    expect(() => m.transportAuth()).toThrow(/\$\{secret:id_token\}, which is not set/);
  });

  it('the config needs clientId, clientSecret and idp with issuer or tokenEndpoint', () => {
    const bad = (oauth: unknown) =>
      serverEntrySchema.safeParse({ url: 'https://mcp.example.com/mcp', oauth }).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(bad({ grant: 'cross-app-access', clientId: 'c' })).toEqual([expect.stringContaining('oauth.grant: is "cross-app-access", which needs')]);
    expect(bad({ grant: 'cross-app-access', clientId: 'c', clientSecret: '${secret:s}', idp: { clientId: 'i', idToken: '${secret:t}' } })).toEqual([
      'oauth.idp: needs "issuer" or "tokenEndpoint" (where the ID token is exchanged)',
    ]);
    expect(
      bad({
        grant: 'cross-app-access',
        clientId: 'c',
        clientSecret: '${secret:s}',
        idp: { issuer: 'https://idp.example.com', clientId: 'i', idToken: 'eyJ.raw.token' },
      })?.[0],
    ).toMatch(/^oauth\.idp\.idToken: must be a \$\{secret:NAME\} reference/);
    expect(bad({ clientId: 'c', idp: { issuer: 'https://idp.example.com', clientId: 'i', idToken: '${secret:t}' } })).toEqual([
      'oauth.idp: is only for "grant": "cross-app-access"',
    ]);
  });
});
