// Secrets changed while a host runs — by another process's `switchboard secret set` (the same secrets.json, another
// writer) or through the host: servers follow (one waiting on a secret starts, one whose value changed restarts),
// the names are announced (never the values), and the trace redacts the new values.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isOAuthSecretName } from '../auth/store';
import { secretsFileOf } from '../support/paths';
import { FileSecretStore, MemorySecretStore } from '../secrets/store';
import { hostPerTest } from '../../test-support/features-fixture';
import { waitFor } from '../../test-support/processes';

const OAUTH_PREFIX = 'oauth.';
const envServer = join(import.meta.dirname, '..', 'fixtures', 'env-server.mjs');
const growingServer = join(import.meta.dirname, '..', 'fixtures', 'list-changed-server.mjs');

/** A server whose TOKEN is the secret `token`. */
const waitingOnToken = { env: { command: process.execPath, args: [envServer], env: { TOKEN: '${secret:token}' } } };

describe('secrets another process changes', () => {
  // A host (headless, watching unless told not to) over the servers in a fresh data folder, settled.
  const { hostWith } = hostPerTest();

  it('start the server waiting on them, and restart the one using them with the new value', async () => {
    const started = await hostWith(waitingOnToken);
    const dataDir = started.dataDir;
    const view = async () => (await started.api['servers:list']())[0];
    expect((await view())?.status).toBe('error');
    expect((await view())?.error).toContain('no secret named token');

    const other = new FileSecretStore(secretsFileOf(dataDir));
    other.set('token', 'first-value-0001');
    await waitFor(async () => (await view())?.status === 'ready', 10_000, 'the server to start once its secret exists');
    const token = async (): Promise<string | undefined> => {
      const result = await started.api['tools:call']({ server: 'env', tool: 'env' });
      const text = result?.content[0]?.type === 'text' ? result.content[0].text : '{}';
      return (JSON.parse(text) as Record<string, string>).TOKEN;
    };
    expect(await token()).toBe('first-value-0001');

    const pid = (await view())?.pid;
    other.set('token', 'second-value-0002');
    await waitFor(async () => (await view())?.status === 'ready' && (await view())?.pid !== pid, 10_000, 'the server to restart');
    expect(await token()).toBe('second-value-0002');
    // The new value is one the trace redacts.
    expect(JSON.stringify(await started.api['trace:list']({ server: 'env' }))).not.toContain('second-value-0002');
  }, 30_000);

  it('are followed even when this host writes the store just after another process did (before the watcher fires)', async () => {
    const started = await hostWith(waitingOnToken);
    const dataDir = started.dataDir;
    expect((await started.api['servers:list']())[0]?.status).toBe('error');
    new FileSecretStore(secretsFileOf(dataDir)).set('token', 'their-value-0005');
    // A sign-in record written by this host at once (its write reads the file first, so it takes the change in).
    started.secrets.set(`${OAUTH_PREFIX}unrelated`, '{}');
    await waitFor(async () => (await started.api['servers:list']())[0]?.status === 'ready', 10_000, 'the server to start on the other process’s secret');
  }, 30_000);

  it('are announced by name (this host’s changes and another process’s), never by value, sign-in records left out', async () => {
    const started = await hostWith({});
    const dataDir = started.dataDir;
    const announced: string[][] = [];
    const payloads: string[] = [];
    started.api.on('secrets:changed', (event) => {
      announced.push(event.names);
      payloads.push(JSON.stringify(event));
    });
    await started.api['secrets:set']('mine', 'my-value-0001');
    expect(announced.at(-1)).toEqual(['mine']);

    const other = new FileSecretStore(secretsFileOf(dataDir));
    other.set('theirs', 'their-value-0002');
    const signIn = `${OAUTH_PREFIX}example`;
    expect(isOAuthSecretName(signIn)).toBe(true);
    other.set(signIn, '{"access_token":"tok-0003"}');
    await waitFor(() => JSON.stringify(announced.at(-1)) === JSON.stringify(['mine', 'theirs']), 10_000, 'the other process’s change announced');
    await started.api['secrets:delete']('mine');
    expect(announced.at(-1)).toEqual(['theirs']);
    for (const value of ['my-value-0001', 'their-value-0002', 'tok-0003']) expect(payloads.join('\n')).not.toContain(value);
  }, 30_000);

  it('made through the host in a store that counts nothing itself are redacted from the trace at once', async () => {
    // As the desktop's keychain store: only this process changes it, and it keeps no count of its own.
    const started = await hostWith(
      { growing: { command: process.execPath, args: [growingServer] } },
      {},
      { secrets: new MemorySecretStore(), watchConfig: false },
    );
    // Stored the way an import or an install stores what it moves into secret storage: through the host's store.
    started.secrets.set('imported', 'imported-value-0004');
    await started.api['tools:call']({ server: 'growing', tool: 'grow', args: { note: 'imported-value-0004' } });
    const entries = await started.api['trace:list']({ server: 'growing' });
    const call = entries.find((e) => e.direction === 'send' && (e.message as { method?: string }).method === 'tools/call');
    expect((call?.message as { params?: { arguments?: { note?: unknown } } } | undefined)?.params?.arguments?.note).toBe('<redacted>');
    expect(JSON.stringify(entries)).not.toContain('imported-value-0004');
  }, 30_000);
});
