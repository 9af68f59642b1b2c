import { serverEntrySchema, type ServerEntry } from '../../../src-shared/schemas/config';
import type { InstallPlanView } from '../../../src-shared/contract/install';
import { CoreError } from '../errors';
import { installNote, notesOf } from './notes';
import { commandLineOf } from './plan';

/*
 * `switchboard://install?…` links (desktop). Two forms:
 *   switchboard://install?registry=io.github.owner/server[&version=1.2.3][&registryUrl=https://…]
 *   switchboard://install?name=NAME&config=BASE64URL(JSON of one config entry)
 * A link only opens the install dialog: the full command is shown, and nothing is added before the person says so.
 */

export const deepLinkScheme = 'switchboard';

export type InstallLink = { kind: 'registry'; name: string; version?: string; registry?: string } | { kind: 'entry'; name: string; entry: ServerEntry };

const maxLinkLength = 8192;

function bad(detail: string): CoreError {
  return new CoreError('invalid-argument', `This switchboard:// link cannot be used: ${detail}. Nothing was added.`);
}

export function parseInstallLink(raw: string): InstallLink {
  if (raw.length > maxLinkLength) throw bad(`it is longer than ${maxLinkLength} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw bad('it is not a URL');
  }
  if (url.protocol !== `${deepLinkScheme}:`) throw bad(`it is a ${url.protocol} link, not switchboard:`);
  // switchboard://install?… puts "install" in the host; switchboard:install?… in the path.
  const action = url.hostname || url.pathname.replace(/^\/+|\/+$/g, '');
  if (action !== 'install') throw bad(`"${action || '(none)'}" is not something a link can do (only install)`);
  const params = url.searchParams;
  const registryName = params.get('registry');
  if (registryName !== null) {
    if (!/^[A-Za-z0-9.-]+\/[A-Za-z0-9._-]+$/.test(registryName)) throw bad(`"${registryName}" is not a registry server name (like io.github.owner/server)`);
    const version = params.get('version');
    const registry = params.get('registryUrl');
    if (registry !== null && !/^https:\/\//.test(registry)) throw bad('registryUrl must be https');
    return { kind: 'registry', name: registryName, ...(version ? { version } : {}), ...(registry ? { registry } : {}) };
  }
  const name = params.get('name');
  const config = params.get('config');
  if (name === null || config === null) throw bad('it needs registry=NAME, or name=NAME and config=BASE64URL');
  if (!/^[A-Za-z0-9._-]{1,100}$/.test(name)) throw bad(`"${name}" is not a usable server name (letters, digits, . _ -)`);
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(config, 'base64url').toString('utf8'));
  } catch {
    throw bad('its config is not base64url-encoded JSON');
  }
  const parsed = serverEntrySchema.safeParse(json);
  if (!parsed.success)
    throw bad(`its config is not a server entry (${parsed.error.issues.map((i) => `${i.path.join('.') || 'entry'} ${i.message}`).join('; ')})`);
  return { kind: 'entry', name, entry: parsed.data };
}

/** A link's own entry as a plan: nothing to fill in; the person sees its command before it is added. */
export function planFromLinkEntry(link: Extract<InstallLink, { kind: 'entry' }>, name = link.name): InstallPlanView {
  return {
    source: 'link',
    name,
    title: name,
    origin: 'a switchboard:// link',
    entry: link.entry,
    inputs: [],
    commandLine: commandLineOf(link.entry, []),
    ...notesOf([installNote('fromLink')]),
  };
}
