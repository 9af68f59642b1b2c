import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLogin } from '../test-support/cli-login';
import { followInBrowser, startOAuthFixture, type OAuthFixture } from '../test-support/oauth-fixture';
import { tempDir } from '../test-support/processes';

const cliArgs = ['--import', 'tsx', join(__dirname, 'main.ts')];

function cli(args: string[], home: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [...cliArgs, ...args], { env: { PATH: process.env.PATH ?? '', HOME: home }, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('switchboard login / logout (oidc-provider on loopback)', () => {
  let fixture: OAuthFixture;
  beforeAll(async () => {
    fixture = await startOAuthFixture();
  });
  afterAll(async () => {
    await fixture?.stop();
  });

  it('list shows needs-login; login --no-browser prints the URL and waits for the redirect; the tokens outlive the process; logout signs out', async () => {
    const home = tempDir();
    const config = join(tempDir(), 'mcp.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { remote: { url: fixture.mcp } } }));

    const before = cli(['--config', config, '--json', 'list'], home);
    expect(before.status, before.stderr).toBe(0);
    expect(JSON.parse(before.stdout)).toEqual([
      expect.objectContaining({ name: 'remote', status: 'needs-login', error: expect.stringMatching(/switchboard login remote/) }),
    ]);

    // login: the URL comes on stderr; the scripted browser follows it to the CLI's loopback listener.
    const login = await startLogin(['--config', config, 'login', 'remote', '--no-browser'], { PATH: process.env.PATH ?? '', HOME: home });
    expect(login.stderr()).toContain(`To sign in to "remote" at ${new URL(fixture.issuer).host}`);
    expect(login.stderr()).not.toContain('Opened it in your browser');
    const page = await followInBrowser(login.url);
    expect(page.status).toBe(200);
    expect(await login.exited, login.stderr()).toBe(0);
    expect(login.stdout()).toMatch(/^Signed in to "remote" at 127\.0\.0\.1:\d+ \(mcp:read[^)]*\); the server is ready with 2 tool\(s\)\.$/m);

    // A new process: signed in without a browser; the tool works.
    const call = cli(['--config', config, 'call', 'remote', 'whoami'], home);
    expect(call.status, call.stderr).toBe(0);
    expect(call.stdout).toContain('alice');
    const doctor = cli(['--config', config, 'doctor', 'remote'], home);
    expect(doctor.stdout).toMatch(/sign-in: signed in at 127\.0\.0\.1:\d+ \(mcp:read[^)]*\); the access token expires in \d+ min \(renewed silently\)/);
    // No token in the config file.
    expect(readFileSync(config, 'utf8')).not.toMatch(/token/);

    const out = cli(['--config', config, 'logout', 'remote'], home);
    expect(out.status, out.stderr).toBe(0);
    expect(out.stdout).toContain('Signed out of "remote": the tokens are deleted and revoked at the authorization server.');
    const after = cli(['--config', config, '--json', 'list'], home);
    expect(JSON.parse(after.stdout)).toEqual([expect.objectContaining({ name: 'remote', status: 'needs-login' })]);
  });

  it('usage and non-OAuth servers exit 2; --no-browser and login are in --help', () => {
    const home = tempDir();
    const config = join(tempDir(), 'mcp.json');
    writeFileSync(
      config,
      JSON.stringify({ mcpServers: { local: { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'], disabled: true } } }),
    );
    expect(cli(['--config', config, 'login'], home).status).toBe(2);
    expect(cli(['--config', config, 'list', '--no-browser'], home).status).toBe(2);
    expect(cli(['--config', config, 'login', 'nope'], home).status).toBe(2);
    const local = cli(['--config', config, 'login', 'local'], home);
    expect(local.status).toBe(2);
    expect(local.stderr).toMatch(/does not sign in with OAuth/);
    const help = cli(['--help'], home);
    expect(help.stdout).toContain('login SERVER [--no-browser]');
    expect(help.stdout).toContain('logout SERVER');
  });
});
