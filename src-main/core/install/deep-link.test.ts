import { describe, expect, it } from 'vitest';
import { parseInstallLink, planFromLinkEntry } from './deep-link';

const encode = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('switchboard://install links', () => {
  it('a registry link names the server (and optionally its version and registry)', () => {
    expect(parseInstallLink('switchboard://install?registry=io.github.example/weather')).toEqual({ kind: 'registry', name: 'io.github.example/weather' });
    expect(parseInstallLink('switchboard://install?registry=io.github.example%2Fweather&version=1.4.2&registryUrl=https%3A%2F%2Fregistry.example.com')).toEqual(
      {
        kind: 'registry',
        name: 'io.github.example/weather',
        version: '1.4.2',
        registry: 'https://registry.example.com',
      },
    );
  });

  it('an entry link carries one config entry, validated; its plan shows the full command', () => {
    const link = parseInstallLink(
      `switchboard://install?name=files&config=${encode({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem@2026.8.31', '/tmp'], env: { DEBUG: '1' } })}`,
    );
    expect(link).toEqual({
      kind: 'entry',
      name: 'files',
      entry: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem@2026.8.31', '/tmp'], env: { DEBUG: '1' } },
    });
    if (link.kind !== 'entry') throw new Error('expected an entry link');
    expect(planFromLinkEntry(link).commandLine).toBe('DEBUG=1 npx -y @modelcontextprotocol/server-filesystem@2026.8.31 /tmp');
  });

  it('anything else is refused, saying why and that nothing was added', () => {
    const cases: Array<[string, RegExp]> = [
      ['https://example.com/install?registry=a/b', /is a https: link/],
      ['switchboard://uninstall?name=x', /"uninstall" is not something a link can do/],
      ['switchboard://install?registry=not a name', /is not a registry server name/],
      ['switchboard://install?registry=a.b/c&registryUrl=http%3A%2F%2Fevil.example', /registryUrl must be https/],
      ['switchboard://install?name=x', /needs registry=NAME, or name=NAME and config/],
      ['switchboard://install?name=x&config=!!!', /not base64url-encoded JSON/],
      [`switchboard://install?name=x&config=${encode({ args: ['a'] })}`, /needs either "command"/],
      [`switchboard://install?name=${encodeURIComponent('a b')}&config=${encode({ command: 'x' })}`, /not a usable server name/],
      [`switchboard://install?name=x&config=${'A'.repeat(9000)}`, /longer than 8192/],
    ];
    for (const [url, message] of cases) expect(() => parseInstallLink(url), url).toThrow(message);
    expect(() => parseInstallLink('switchboard://install?name=x')).toThrow(/Nothing was added/);
  });
});
