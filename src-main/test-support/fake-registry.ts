import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * A local MCP Registry on loopback for tests: a real node:http server answering the API v0.1 routes
 * (`GET /v0.1/servers?search=&cursor=&limit=`, `GET /v0.1/servers/{name}/versions/{version}`) with server.json
 * documents shaped like the official registry's (schema 2025-12-11, `_meta` with the official status).
 */

const schema = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';

export interface RegistryDoc {
  server: Record<string, unknown>;
  status?: 'active' | 'deprecated' | 'deleted';
  statusMessage?: string;
}

export const registryDocs: RegistryDoc[] = [
  {
    server: {
      $schema: schema,
      name: 'io.github.example/weather',
      title: 'Weather',
      description: 'Forecasts and current conditions for any city.',
      version: '1.4.2',
      repository: { url: 'https://github.com/example/weather-mcp', source: 'github' },
      packages: [
        {
          registryType: 'npm',
          registryBaseUrl: 'https://registry.npmjs.org',
          identifier: '@example/weather-mcp',
          version: '1.4.2',
          transport: { type: 'stdio' },
          packageArguments: [
            {
              type: 'named',
              name: '--units',
              value: '{units}',
              variables: { units: { description: 'Units', choices: ['metric', 'imperial'], default: 'metric' } },
            },
          ],
          environmentVariables: [
            { name: 'WEATHER_API_KEY', description: 'Your weather API key', isRequired: true, isSecret: true },
            { name: 'WEATHER_CITY', description: 'Default city', isRequired: false },
          ],
        },
      ],
    },
  },
  {
    server: {
      $schema: schema,
      name: 'io.github.example/fetch',
      description: 'Fetches web pages as markdown (Python).',
      version: '2025.4.7',
      packages: [{ registryType: 'pypi', identifier: 'mcp-server-fetch', version: '2025.4.7', transport: { type: 'stdio' } }],
    },
  },
  {
    server: {
      $schema: schema,
      name: 'io.github.example/git-container',
      description: 'Git tools in a container.',
      version: '0.6.1',
      packages: [
        {
          registryType: 'oci',
          identifier: 'docker.io/example/git-mcp:0.6.1',
          transport: { type: 'stdio' },
          environmentVariables: [{ name: 'GIT_TOKEN', description: 'A token for private repositories', isRequired: true, isSecret: true }],
        },
      ],
    },
  },
  {
    server: {
      $schema: schema,
      name: 'com.example/notes',
      title: 'Notes (remote)',
      description: 'Hosted notes server.',
      version: '3.0.0',
      remotes: [
        {
          type: 'streamable-http',
          url: 'https://notes.example.com/mcp',
          headers: [
            {
              name: 'Authorization',
              value: 'Bearer {token}',
              isRequired: true,
              isSecret: true,
              variables: { token: { description: 'API token from your notes account', isRequired: true, isSecret: true } },
            },
          ],
        },
      ],
    },
  },
  {
    server: {
      $schema: schema,
      name: 'io.github.example/old-weather',
      description: 'The old weather server.',
      version: '0.9.0',
      packages: [{ registryType: 'npm', identifier: 'old-weather-mcp', version: '0.9.0', transport: { type: 'stdio' } }],
    },
    status: 'deprecated',
    statusMessage: 'use io.github.example/weather',
  },
  {
    server: {
      $schema: schema,
      name: 'io.github.example/gone',
      description: 'Removed for malware.',
      version: '1.0.0',
      packages: [{ registryType: 'npm', identifier: 'gone-mcp', version: '1.0.0', transport: { type: 'stdio' } }],
    },
    status: 'deleted',
  },
];

/** An entry whose npm identifier is a URL with a fragment (`npx -y 'https://…#@1.0.0'` would install the tarball). */
export const evilDoc: RegistryDoc = {
  server: {
    $schema: schema,
    name: 'com.example/evil',
    description: 'Names a tarball URL instead of a package.',
    version: '1.0.0',
    packages: [{ registryType: 'npm', identifier: 'https://evil.example/pkg.tgz#', version: '1.0.0', transport: { type: 'stdio' } }],
  },
};

function response(doc: RegistryDoc): Record<string, unknown> {
  return {
    server: doc.server,
    _meta: {
      'io.modelcontextprotocol.registry/official': {
        status: doc.status ?? 'active',
        ...(doc.statusMessage ? { statusMessage: doc.statusMessage } : {}),
        publishedAt: '2026-10-01T12:00:00Z',
        updatedAt: '2026-10-01T12:00:00Z',
        isLatest: true,
      },
    },
  };
}

export interface FakeRegistry {
  url: string;
  /** Paths (with query) asked for, in order. */
  requests: string[];
  close(): Promise<void>;
}

/**
 * `files` are served at `/files/NAME` (a bundle a doc's package points at); `{registry}` in a doc is this server's URL.
 */
export async function startFakeRegistry(docs: RegistryDoc[] = registryDocs, pageSize = 4, files: Record<string, Uint8Array> = {}): Promise<FakeRegistry> {
  const requests: string[] = [];
  let base = '';
  const withBase = (doc: RegistryDoc): RegistryDoc => JSON.parse(JSON.stringify(doc).replaceAll('{registry}', base)) as RegistryDoc;
  const send = (res: ServerResponse, status: number, body: unknown): void => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push(`${url.pathname}${url.search}`);
    if (req.method !== 'GET') return send(res, 405, { error: 'method not allowed' });
    if (url.pathname === '/v0.1/servers') {
      const term = (url.searchParams.get('search') ?? '').toLowerCase();
      const matching = docs.filter((d) => String(d.server.name).toLowerCase().includes(term));
      const start = Number(url.searchParams.get('cursor') ?? '0') || 0;
      const limit = Math.min(pageSize, Number(url.searchParams.get('limit') ?? pageSize) || pageSize);
      const page = matching.slice(start, start + limit);
      const next = start + limit < matching.length ? String(start + limit) : undefined;
      return send(res, 200, { servers: page.map((d) => response(withBase(d))), metadata: { count: page.length, ...(next ? { nextCursor: next } : {}) } });
    }
    const match = /^\/v0\.1\/servers\/([^/]+)\/versions\/([^/]+)$/.exec(url.pathname);
    if (match) {
      const name = decodeURIComponent(match[1] ?? '');
      const version = decodeURIComponent(match[2] ?? '');
      const doc = docs.find((d) => d.server.name === name && (version === 'latest' || d.server.version === version));
      return doc ? send(res, 200, response(withBase(doc))) : send(res, 404, { title: 'Not Found', status: 404, detail: 'Server not found' });
    }
    const file = /^\/files\/([^/]+)$/.exec(url.pathname)?.[1];
    const bytes = file !== undefined && Object.hasOwn(files, file) ? files[file] : undefined;
    if (bytes) {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(bytes.byteLength) });
      res.end(Buffer.from(bytes));
      return;
    }
    send(res, 404, { title: 'Not Found', status: 404 });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  base = `http://127.0.0.1:${port}`;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
