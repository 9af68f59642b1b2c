import { writeFileSync } from 'node:fs';
import { followInBrowser, startOAuthFixture, type OAuthFixture } from '../src-main/test-support/oauth-fixture';
import { calculatorServer, expect, test } from './fixtures';
import { expectReady, openRow, serverRow } from './helpers';
import { freePort } from '../src-main/test-support/processes';

/*
 * OAuth sign-in from the UI: a remote server behind a real authorization server (oidc-provider) shows
 * "Sign in" with the AS host and scopes (not an error); Sign in shows the authorization URL while it waits (headless
 * has no browser opener); the person's browser — scripted here — finishes it; the server is ready; Sign out.
 */

let fixture: OAuthFixture;
test.beforeAll(async () => {
  fixture = await startOAuthFixture();
});
test.afterAll(async () => {
  await fixture?.stop();
});

test.use({ mcpServers: { calculator: calculatorServer() } });

test('a server that needs sign-in shows Sign in (AS host, scopes); signing in makes it ready; Sign out asks again', async ({ page, host }, testInfo) => {
  await expectReady(page, 'calculator');
  writeFileSync(host.configPath, `${JSON.stringify({ mcpServers: { calculator: calculatorServer(), remote: { url: fixture.mcp } } }, null, 2)}\n`);
  const row = serverRow(page, 'remote');
  await expect(row).toHaveAttribute('data-status', 'needs-login');
  await expect(row.getByTestId('server-status')).toHaveText('Needs sign-in');
  await openRow(page, 'remote');
  const card = row.getByTestId('auth-card');
  await expect(card).toHaveAttribute('data-state', 'needs-login');
  await expect(card).toContainText(`Sign in to use “remote”`);
  await expect(card).toContainText(new URL(fixture.issuer).host);
  await expect(card.getByTestId('auth-scopes')).toContainText('mcp:read');
  // Not an error: no red reason box.
  await expect(row.getByTestId('server-error')).toHaveCount(0);
  await testInfo.attach('needs-login', { body: await row.screenshot(), contentType: 'image/png' });

  await card.getByTestId('auth-sign-in').click();
  await expect(card).toHaveAttribute('data-state', 'signing-in');
  const url = (await card.getByTestId('auth-url').textContent()) ?? '';
  expect(new URL(url).origin).toBe(fixture.issuer);
  await testInfo.attach('signing-in', { body: await row.screenshot(), contentType: 'image/png' });
  const page2 = await followInBrowser(url);
  expect(page2.status).toBe(200);

  await expectReady(page, 'remote');
  await expect(row.getByTestId('auth-signed-in')).toContainText(`Signed in at ${new URL(fixture.issuer).host}`);
  await expect(row.getByTestId('tool-item').filter({ hasText: 'whoami' })).toHaveCount(1);

  await row.getByTestId('auth-sign-out').click();
  await expect(row).toHaveAttribute('data-status', 'needs-login');
  await expect(row.getByTestId('auth-card')).toHaveAttribute('data-state', 'needs-login');
});

test('an authorization server that lets no app register itself: the card asks for the client id the person registered, then signs in', async ({
  page,
  host,
}) => {
  const port = await freePort();
  const closed = await startOAuthFixture(['--no-dcr', '--preregistered', String(port)]);
  try {
    await expectReady(page, 'calculator');
    writeFileSync(host.configPath, `${JSON.stringify({ mcpServers: { calculator: calculatorServer(), closed: { url: closed.mcp } } }, null, 2)}\n`);
    const row = serverRow(page, 'closed');
    await expect(row).toHaveAttribute('data-status', 'needs-login');
    await openRow(page, 'closed');
    await row.getByTestId('auth-sign-in').click();
    await expect(row.getByTestId('auth-error')).toContainText('does not let apps register themselves');
    const form = row.getByTestId('auth-client-form');
    await expect(form.getByTestId('auth-redirect-uri')).toHaveText(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    await form.getByTestId('auth-client-id').fill('switchboard-test');
    await form.getByTestId('auth-client-secret').fill('s3cret-client-value');
    await form.getByTestId('auth-client-save').click();
    const card = serverRow(page, 'closed').getByTestId('auth-card');
    await expect(card).toHaveAttribute('data-state', 'signing-in');
    const url = (await card.getByTestId('auth-url').textContent()) ?? '';
    expect((await followInBrowser(url)).status).toBe(200);
    await expectReady(page, 'closed');
  } finally {
    await closed.stop();
  }
});
