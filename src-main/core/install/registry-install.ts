import { createHash } from 'node:crypto';
import type { InstallPlanView } from '../../../src-shared/contract/install';
import { CoreError, messageOf } from '../errors';
import { planFromBundle } from './bundle';
import { installNote, notesOf } from './notes';
import { planFromRegistry, registryBundleOf, serverNameFrom, type RegistryBundleRef, type RegistryPlanOptions } from './plan';
import type { RegistryClient } from './registry-client';

/*
 * A registry entry to install: a package or remote becomes a plan directly; an MCP Bundle (`registryType: mcpb`) is
 * downloaded first, checked against the `fileSha256` the registry lists (a mismatch is refused), and planned as a
 * bundle — installed like a dropped .mcpb file.
 */

const maxBundleBytes = 100 * 1024 * 1024;

export interface ResolvedRegistryInstall {
  plan: InstallPlanView;
  /** The downloaded, checked bundle, when the entry installs as one. */
  bundle?: Uint8Array;
}

export async function downloadBundle(ref: RegistryBundleRef, fetchImpl: typeof fetch = fetch): Promise<Uint8Array> {
  let response: Response;
  try {
    response = await fetchImpl(ref.url, { signal: AbortSignal.timeout(120_000) });
  } catch (error) {
    throw new CoreError('request-failed', `Cannot download the MCP Bundle ${ref.url} (${messageOf(error)}).`);
  }
  if (!response.ok) throw new CoreError('request-failed', `Downloading the MCP Bundle ${ref.url} failed: ${response.status} ${response.statusText}.`);
  const declared = Number(response.headers.get('content-length') ?? '0');
  if (declared > maxBundleBytes)
    throw new CoreError('not-supported', `The MCP Bundle ${ref.url} is larger than ${maxBundleBytes / 1024 / 1024} MB; it is not installed.`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes.byteLength > maxBundleBytes)
    throw new CoreError('not-supported', `The MCP Bundle ${ref.url} is larger than ${maxBundleBytes / 1024 / 1024} MB; it is not installed.`);
  const actual = createHash('sha256').update(bytes).digest('hex');
  if (actual !== ref.sha256) {
    throw new CoreError(
      'not-supported',
      `The MCP Bundle downloaded from ${ref.url} does not match the fileSha256 the registry lists for ${ref.registryName} ${ref.version} (got ${actual}); it is not installed.`,
      { data: { reason: 'sha256-mismatch' } },
    );
  }
  return bytes;
}

export async function resolveRegistryInstall(
  client: RegistryClient,
  name: string,
  options: RegistryPlanOptions & { version?: string; dataDir: string; fetch?: typeof fetch },
): Promise<ResolvedRegistryInstall> {
  const entry = await client.get(name, options.version);
  const planning = { ...(options.name !== undefined ? { name: options.name } : {}), ...(options.use !== undefined ? { use: options.use } : {}) };
  const ref = registryBundleOf(entry, planning);
  if (!ref) return { plan: planFromRegistry(entry, planning) };
  const bundle = await downloadBundle(ref, options.fetch);
  const { plan } = await planFromBundle(bundle, {
    dataDir: options.dataDir,
    name: options.name ?? serverNameFrom(entry.server.name),
    fileLabel: `the bundle of ${entry.server.name}`,
  });
  return {
    bundle,
    plan: {
      ...plan,
      origin: `${entry.server.name} (MCP Registry), ${plan.origin}`,
      ...notesOf([installNote('downloaded', { url: ref.url }), ...plan.notices]),
    },
  };
}
