import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, sep } from 'node:path';
import semver from 'semver';
import { z } from 'zod';
import type { ServerEntry } from '../../../src-shared/schemas/config';
import type { BundleSignatureView, InstallInput, InstallNote, InstallPlanView } from '../../../src-shared/contract/install';
import { ensurePrivateDir, writeFileAtomicSync, writePrivateFileSync } from '../support/data-files';
import { CoreError, messageOf } from '../errors';
import { installNote, notesOf } from './notes';
import { commandLineOf, installToken, secretNameFor, serverNameFrom } from './plan';
import { extractSignatureBlock, verifySignatureBlock } from './signature';

/*
 * MCP Bundles (.mcpb, manifest 0.3): a zip with manifest.json at its root. The manifest is validated (zod), the
 * bundle's compatibility (platform, Node/Python versions) checked, a signature checked when there is one
 * (signature.ts: a signature that does not match refuses the bundle; the plan says who signed it and whether that is
 * verified), and `server.mcp_config` mapped to a config entry:
 * `${__dirname}` is the folder it is unpacked to (`<dataDir>/bundles/<name>/`), `${user_config.KEY}` a value the person
 * gives (sensitive ones kept as secrets). A record beside the folder (`<name>.install.json`) lets uninstall find it.
 */

export const supportedManifestVersions = ['0.1', '0.2', '0.3'] as const;

const mcpConfigSchema = z.looseObject({
  command: z.string().min(1),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
});
const userConfigSchema = z.looseObject({
  type: z.enum(['string', 'number', 'boolean', 'directory', 'file']),
  title: z.string(),
  description: z.string().optional(),
  required: z.boolean().optional(),
  default: z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]).optional(),
  multiple: z.boolean().optional(),
  sensitive: z.boolean().optional(),
  min: z.number().optional(),
  max: z.number().optional(),
});
export const manifestSchema = z.looseObject({
  manifest_version: z.string().optional(),
  dxt_version: z.string().optional(),
  name: z.string().min(1).max(200),
  display_name: z.string().optional(),
  version: z.string().min(1),
  description: z.string(),
  author: z.looseObject({ name: z.string() }),
  server: z.looseObject({
    type: z.enum(['node', 'python', 'binary', 'uv']),
    entry_point: z.string().min(1),
    mcp_config: mcpConfigSchema.extend({ platform_overrides: z.record(z.string(), mcpConfigSchema.partial()).optional() }),
  }),
  user_config: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_-]*$/, 'user_config keys are letters, digits, _ and -'), userConfigSchema).optional(),
  compatibility: z
    .looseObject({
      platforms: z.array(z.string()).optional(),
      runtimes: z.looseObject({ node: z.string().optional(), python: z.string().optional() }).optional(),
    })
    .optional(),
});
export type BundleManifest = z.infer<typeof manifestSchema>;

const maxUnpackedBytes = 512 * 1024 * 1024;
const installRecordSchema = z.object({ server: z.string(), bundle: z.string(), version: z.string(), installedAt: z.string(), secrets: z.array(z.string()) });
export type BundleInstallRecord = z.infer<typeof installRecordSchema>;

export interface BundleEnvironment {
  platform?: NodeJS.Platform;
  nodeVersion?: string;
  /** The Python version on PATH (undefined: look it up when a manifest asks). */
  pythonVersion?: () => string | undefined;
  /** PEM certificates a signature may chain to (default: Node's tls.rootCertificates). */
  trustedRoots?: readonly string[];
  /** When certificates must be valid (default now). */
  now?: Date;
}

export function bundlesDir(dataDir: string): string {
  return join(dataDir, 'bundles');
}

/** A folder name for a bundle: its manifest name, made safe. */
export function bundleFolderName(name: string): string {
  return (
    name
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/^[-.]+/, '')
      .slice(0, 100) || 'bundle'
  );
}

function pythonOnPath(): string | undefined {
  for (const python of ['python3', 'python']) {
    const run = spawnSync(python, ['--version'], { encoding: 'utf8', timeout: 5000 });
    const version = /Python (\d+\.\d+\.\d+)/.exec(`${run.stdout ?? ''}${run.stderr ?? ''}`)?.[1];
    if (version) return version;
  }
  return undefined;
}

export interface ReadBundle {
  manifest: BundleManifest;
  files: Record<string, Uint8Array>;
  /** Who signed it (status `unsigned` when nobody did). */
  signature: BundleSignatureView;
}

/**
 * The zip's files (paths checked: nothing outside the bundle's folder), its validated manifest and its signature's
 * verdict. A signature that does not match the bytes, or a damaged signature block, refuses it.
 */
export async function readBundle(
  bytes: Uint8Array,
  fileLabel = 'the bundle',
  trust: Pick<BundleEnvironment, 'trustedRoots' | 'now'> = {},
): Promise<ReadBundle> {
  // Loaded when a bundle is read: fflate's start-up (tables, worker_threads) is not worth paying for every CLI command.
  const { unzipSync } = await import('fflate');
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const block = extractSignatureBlock(buffer, fileLabel);
  const signature: BundleSignatureView = block
    ? (
        await verifySignatureBlock(block, fileLabel, {
          ...(trust.trustedRoots ? { trustedRoots: trust.trustedRoots } : {}),
          ...(trust.now ? { now: trust.now } : {}),
        })
      ).view
    : { status: 'unsigned' };
  // The zip is what was signed: the block goes before it is unpacked.
  const zip = block ? new Uint8Array(block.unsigned.buffer, block.unsigned.byteOffset, block.unsigned.byteLength) : bytes;
  let total = 0;
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(zip, {
      filter: (file) => {
        total += file.originalSize;
        if (total > maxUnpackedBytes) throw new Error(`it unpacks to more than ${maxUnpackedBytes / 1024 / 1024} MB`);
        return true;
      },
    });
  } catch (error) {
    throw new CoreError('invalid-argument', `${fileLabel} is not a usable .mcpb file (a zip): ${messageOf(error)}.`);
  }
  for (const path of Object.keys(files)) {
    const parts = path.split('/');
    if (path.startsWith('/') || path.includes('\\') || /^[A-Za-z]:/.test(path) || parts.some((p) => p === '..')) {
      throw new CoreError('invalid-argument', `${fileLabel} holds a file outside its own folder ("${path}"); it is not installed.`);
    }
  }
  const raw = files['manifest.json'];
  if (!raw) throw new CoreError('invalid-argument', `${fileLabel} has no manifest.json at its root; it is not an MCP Bundle.`);
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(raw).toString('utf8'));
  } catch (error) {
    throw new CoreError('invalid-argument', `${fileLabel}'s manifest.json is not JSON (${messageOf(error)}).`);
  }
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) {
    throw new CoreError(
      'invalid-argument',
      `${fileLabel}'s manifest.json is not a valid MCPB manifest: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}.`,
    );
  }
  const version = parsed.data.manifest_version ?? parsed.data.dxt_version;
  if (version === undefined || !(supportedManifestVersions as readonly string[]).includes(version)) {
    throw new CoreError(
      'not-supported',
      `${fileLabel} uses manifest version ${version ?? '(none)'}; Switchboard reads MCPB manifests ${supportedManifestVersions.join(', ')}.`,
    );
  }
  return { manifest: parsed.data, files, signature };
}

/** The note that says what the signature proves. */
export function signatureNote(signature: BundleSignatureView): InstallNote {
  const signer = signature.signer ?? '?';
  const issuer = signature.issuer ?? '?';
  switch (signature.status) {
    case 'unsigned':
      return installNote('unsigned');
    case 'verified':
      return installNote('verified', { signer, issuer });
    case 'self-signed':
      return installNote('selfSigned', { signer });
    case 'untrusted':
      return installNote('untrusted', { signer, issuer });
    case 'expired':
      return installNote('expired', { signer, date: (signature.validTo ?? '?').slice(0, 10) });
    case 'not-yet-valid':
      return installNote('notYetValid', { signer, date: (signature.validFrom ?? '?').slice(0, 10) });
    case 'not-for-code':
      return installNote('notForCode', { signer });
  }
}

/** Why this machine cannot run the bundle (platform, Node or Python version), or undefined. */
export function compatibilityProblem(manifest: BundleManifest, env: BundleEnvironment = {}): string | undefined {
  const compat = manifest.compatibility;
  const platform = env.platform ?? process.platform;
  if (compat?.platforms && !compat.platforms.includes(platform)) return `${manifest.name} runs on ${compat.platforms.join(', ')}, not on ${platform}.`;
  const nodeRange = compat?.runtimes?.node;
  const nodeVersion = env.nodeVersion ?? process.versions.node;
  if (nodeRange !== undefined && semver.validRange(nodeRange) && !semver.satisfies(nodeVersion, nodeRange))
    return `${manifest.name} needs Node ${nodeRange}; this is Node ${nodeVersion}.`;
  const pythonRange = compat?.runtimes?.python;
  if (pythonRange !== undefined || manifest.server.type === 'python') {
    const python = (env.pythonVersion ?? pythonOnPath)();
    if (python === undefined) return `${manifest.name} needs Python${pythonRange ? ` ${pythonRange}` : ''}; none was found on PATH (python3, python).`;
    if (pythonRange !== undefined && semver.validRange(pythonRange) && !semver.satisfies(python, pythonRange))
      return `${manifest.name} needs Python ${pythonRange}; the one on PATH is ${python}.`;
  }
  return undefined;
}

function userConfigDefault(value: string | number | boolean | string[] | undefined, expand: (s: string) => string): string | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value)) return value.map(expand).join(',');
  return expand(String(value));
}

export interface BundlePlan {
  plan: InstallPlanView;
  bundle: ReadBundle;
  /** Where the bundle is unpacked. */
  folder: string;
}

/** The bundle as an install plan (nothing written yet). Refused when the manifest, the platform or the runtimes do not fit. */
export async function planFromBundle(
  bytes: Uint8Array,
  options: { dataDir: string; name?: string; fileLabel?: string; env?: BundleEnvironment },
): Promise<BundlePlan> {
  const bundle = await readBundle(bytes, options.fileLabel, options.env);
  const { manifest } = bundle;
  const problem = compatibilityProblem(manifest, options.env);
  if (problem) throw new CoreError('not-supported', `${problem} It is not installed.`, { data: { reason: 'incompatible' } });
  const folder = join(bundlesDir(options.dataDir), bundleFolderName(manifest.name));
  if (bundle.files[manifest.server.entry_point] === undefined) {
    throw new CoreError('invalid-argument', `${options.fileLabel ?? 'the bundle'}'s entry point ${manifest.server.entry_point} is not in the bundle.`);
  }
  const name = options.name ?? serverNameFrom(manifest.name);
  const home = homedir();
  const places: Record<string, string> = {
    __dirname: folder,
    HOME: home,
    DESKTOP: join(home, 'Desktop'),
    DOCUMENTS: join(home, 'Documents'),
    DOWNLOADS: join(home, 'Downloads'),
    pathSeparator: sep,
    '/': sep,
  };
  const expandPlaces = (text: string): string =>
    text.replace(/\$\{(__dirname|HOME|DESKTOP|DOCUMENTS|DOWNLOADS|pathSeparator|\/)\}/g, (_w, key: string) => places[key] ?? '');
  const inputs: InstallInput[] = Object.entries(manifest.user_config ?? {}).map(([key, spec]) => {
    const secret = spec.sensitive === true;
    const fallback = userConfigDefault(spec.default, expandPlaces);
    return {
      key,
      title: spec.title,
      ...(spec.description ? { description: spec.description } : {}),
      required: spec.required === true,
      secret,
      ...(secret ? { secretName: secretNameFor(name, key) } : {}),
      ...(fallback !== undefined ? { default: fallback } : {}),
      format: spec.type,
    };
  });
  const expand = (text: string): string =>
    expandPlaces(text).replace(/\$\{user_config\.([A-Za-z_][A-Za-z0-9_-]*)\}/g, (whole, key: string) =>
      inputs.some((i) => i.key === key) ? installToken(key) : whole,
    );
  const base = manifest.server.mcp_config;
  const override = base.platform_overrides?.[options.env?.platform ?? process.platform];
  const mcp = { command: override?.command ?? base.command, args: override?.args ?? base.args ?? [], env: { ...base.env, ...override?.env } };
  const entry: ServerEntry = {
    command: expand(mcp.command),
    args: mcp.args.map(expand),
    ...(Object.keys(mcp.env).length ? { env: Object.fromEntries(Object.entries(mcp.env).map(([k, v]) => [k, expand(v)])) } : {}),
  };
  const notices = [signatureNote(bundle.signature), installNote('unpackedTo', { folder })];
  if (existsSync(folder)) notices.push(installNote('replaces'));
  return {
    bundle,
    folder,
    plan: {
      source: 'bundle',
      name,
      title: manifest.display_name ?? manifest.name,
      description: manifest.description,
      version: manifest.version,
      origin: `${manifest.name} by ${manifest.author.name}`,
      entry,
      inputs,
      commandLine: commandLineOf(entry, inputs),
      ...notesOf(notices),
      signature: bundle.signature,
    },
  };
}

function recordFile(dataDir: string, folderName: string): string {
  return join(bundlesDir(dataDir), `${folderName}.install.json`);
}

/**
 * Writes the bundle's files to a fresh folder beside where it goes (`bundles/.unpack-…`): the slow part of an
 * install, done before the config's lock is taken. Answers that folder, for placeBundle (or removal).
 */
export function stageBundle(dataDir: string, planned: BundlePlan): string {
  const root = bundlesDir(dataDir);
  ensurePrivateDir(root);
  const temp = join(root, `.unpack-${randomBytes(6).toString('hex')}`);
  try {
    // A bundle's files are this user's data like any other (a server's code may hold keys): folders 0700, files
    // 0600, set exactly whatever the umask.
    ensurePrivateDir(temp);
    for (const [path, data] of Object.entries(planned.bundle.files)) {
      const target = join(temp, ...path.split('/'));
      if (path.endsWith('/')) {
        ensurePrivateDir(target);
        continue;
      }
      ensurePrivateDir(dirname(target));
      writePrivateFileSync(target, data);
    }
    // Zip entries carry no usable mode here: a binary server's entry point must be executable (by this user only).
    const { manifest } = planned.bundle;
    if (manifest.server.type === 'binary') chmodSync(join(temp, ...manifest.server.entry_point.split('/')), 0o700);
  } catch (error) {
    rmSync(temp, { recursive: true, force: true });
    throw new CoreError('internal', `Cannot unpack the bundle to ${planned.folder}: ${messageOf(error)}.`);
  }
  return temp;
}

/**
 * Swaps a staged folder in as the bundle's folder (replacing an earlier copy whole) and writes the install record
 * beside it. Answers the record it replaced (an earlier install of this bundle), if any.
 */
export function placeBundle(dataDir: string, planned: BundlePlan, staged: string, secrets: string[], now: Date = new Date()): BundleInstallRecord | undefined {
  const recordPath = recordFile(dataDir, bundleFolderName(planned.bundle.manifest.name));
  const previous = readRecord(recordPath);
  try {
    rmSync(planned.folder, { recursive: true, force: true });
    renameSync(staged, planned.folder);
  } catch (error) {
    rmSync(staged, { recursive: true, force: true });
    throw new CoreError('internal', `Cannot unpack the bundle to ${planned.folder}: ${messageOf(error)}.`);
  }
  writeRecord(recordPath, {
    server: planned.plan.name,
    bundle: planned.bundle.manifest.name,
    version: planned.bundle.manifest.version,
    installedAt: now.toISOString(),
    secrets,
  });
  return previous;
}

/** Puts back the record an install replaced (its server's entry still uses the folder). */
export function restoreBundleRecord(dataDir: string, planned: BundlePlan, record: BundleInstallRecord): void {
  writeRecord(recordFile(dataDir, bundleFolderName(planned.bundle.manifest.name)), record);
}

function writeRecord(path: string, record: BundleInstallRecord): void {
  writeFileAtomicSync(path, `${JSON.stringify(record, null, 2)}\n`);
}

function readRecord(path: string): BundleInstallRecord | undefined {
  try {
    return installRecordSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
  } catch {
    return undefined;
  }
}

/** The bundle installed as config entry `server`, if one was. */
export function findInstalledBundle(dataDir: string, server: string): { record: BundleInstallRecord; folder: string; recordPath: string } | undefined {
  const root = bundlesDir(dataDir);
  if (!existsSync(root)) return undefined;
  for (const file of readdirSync(root)) {
    if (!file.endsWith('.install.json')) continue;
    const recordPath = join(root, file);
    try {
      const record = installRecordSchema.parse(JSON.parse(readFileSync(recordPath, 'utf8')));
      if (record.server === server) return { record, folder: join(root, file.slice(0, -'.install.json'.length)), recordPath };
    } catch {
      // a damaged record names nothing
    }
  }
  return undefined;
}

/** Removes an installed bundle's files and its record; returns the secrets it stored (for the caller to delete). */
export function removeBundleFiles(found: { folder: string; recordPath: string; record: BundleInstallRecord }): string[] {
  rmSync(found.folder, { recursive: true, force: true });
  rmSync(found.recordPath, { force: true });
  return found.record.secrets;
}
