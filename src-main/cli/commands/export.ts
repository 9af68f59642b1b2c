import { fchmodSync, fstatSync } from 'node:fs';
import type { SecretStore } from '../../core/secrets/store';
import { cliT, errorLine } from '../i18n';
import { err } from '../output';
import { fileOnly, type CliCommand } from './command';

/**
 * `switchboard export [SERVER…] [--inline-secrets]`: Claude-compatible JSON of every server, or of those named, read
 * from the file alone. Claude cannot resolve `${secret:NAME}`: each reference kept is named on stderr; with
 * --inline-secrets the values are written instead (and a file stdout is redirected to is made 0600). Exit 1 when a
 * referenced secret is not set (nothing is printed), 2 for an unknown server.
 */
export const exportCommand: CliCommand = {
  name: 'export',
  // It starts no server, and a broken file does not stop it (it exports what the host could read).
  host: { ...fileOnly, withConfigError: true },
  options: ['inlineSecrets'],
  async run(host, args) {
    let text: string;
    try {
      text = await host.api['config:export'](args.positionals.length ? { names: args.positionals } : {});
    } catch (error) {
      err(`switchboard: ${errorLine(error)}`);
      return 2;
    }
    const document = JSON.parse(text) as { mcpServers: Record<string, unknown> };
    const found = secretReferences(document.mcpServers);
    if (found.length === 0) {
      process.stdout.write(text);
      return 0;
    }
    if (!args.inlineSecrets) {
      for (const ref of found) err(`switchboard: ${cliT('cli.exportSecretRef', { server: ref.server, field: ref.field, ref: `\${secret:${ref.name}}` })}`);
      process.stdout.write(text);
      return 0;
    }
    const missing = found.filter((ref) => host.secrets.get(ref.name) === undefined);
    for (const ref of missing)
      err(`switchboard: ${cliT('cli.exportSecretMissing', { server: ref.server, field: ref.field, ref: `\${secret:${ref.name}}`, name: ref.name })}`);
    if (missing.length > 0) return 1;
    const inlined = { mcpServers: inline(document.mcpServers, host.secrets) };
    // Before the values are written: a file stdout is redirected to is this user's alone.
    const toFile = madePrivate();
    if (toFile === 'failed') {
      err(`switchboard: ${cliT('cli.exportPrivateFailed')}`);
      return 1;
    }
    process.stdout.write(`${JSON.stringify(inlined, null, 2)}\n`);
    const names = [...new Set(found.map((ref) => ref.name))].join(', ');
    err(`switchboard: ${cliT('cli.exportInlined', { count: found.length, names })}${toFile === 'private' ? ` ${cliT('cli.exportInlinedFile')}` : ''}`);
    return 0;
  },
};

const reference = /\$\{secret:([^}]+)\}/g;

interface SecretReference {
  server: string;
  /** Where in the entry: `env.API_KEY`, `headers.Authorization`, `args[2]`. */
  field: string;
  name: string;
}

/** Every `${secret:NAME}` in the entries' strings, with the entry and the field it is in. */
function secretReferences(servers: Record<string, unknown>): SecretReference[] {
  const found: SecretReference[] = [];
  const walk = (value: unknown, server: string, field: string): void => {
    if (typeof value === 'string') {
      for (const match of value.matchAll(reference)) found.push({ server, field, name: match[1] ?? '' });
    } else if (Array.isArray(value)) value.forEach((item, i) => walk(item, server, `${field}[${i}]`));
    else if (typeof value === 'object' && value !== null)
      for (const [key, item] of Object.entries(value)) walk(item, server, field === '' ? key : `${field}.${key}`);
  };
  for (const [server, entry] of Object.entries(servers)) walk(entry, server, '');
  return found;
}

/** The entries with each `${secret:NAME}` replaced by its value (every one is set: checked before). */
function inline(value: unknown, secrets: SecretStore): unknown {
  if (typeof value === 'string') return value.replace(reference, (whole, name: string) => secrets.get(name) ?? whole);
  if (Array.isArray(value)) return value.map((item) => inline(item, secrets));
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, inline(item, secrets)]));
  return value;
}

/**
 * Makes stdout 0600 when it is a regular file (a redirect): 'private'; 'not-a-file' for a terminal or a pipe;
 * 'failed' when the file could not be made private (then no secret may be written to it).
 */
function madePrivate(): 'private' | 'not-a-file' | 'failed' {
  let isFile: boolean;
  try {
    isFile = fstatSync(1).isFile();
  } catch {
    return 'not-a-file';
  }
  if (!isFile) return 'not-a-file';
  try {
    fchmodSync(1, 0o600);
    return 'private';
  } catch {
    return 'failed';
  }
}
