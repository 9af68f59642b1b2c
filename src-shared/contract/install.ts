import type { ServerEntry } from '../schemas/config';

/*
 * One-step installs: a server from an MCP Registry, an MCP Bundle (.mcpb) or a `switchboard://install` link
 * becomes a config entry pinned to an exact version. Nothing is added before a person saw the full command (or URL)
 * and the values it needs; an installed stdio entry still waits for consent in the app before it starts.
 */

/** A value an install needs from the person: an environment variable, a header, an argument or a bundle's user_config. */
export interface InstallInput {
  /** The key `--set KEY=VALUE` (and the form) fills. */
  key: string;
  title: string;
  description?: string;
  required: boolean;
  /** Kept in secret storage; the entry refers to it as `${secret:secretName}`. */
  secret: boolean;
  secretName?: string;
  default?: string;
  choices?: string[];
  /** string | number | boolean | filepath | directory | file. */
  format?: string;
}

export type InstallSourceKind = 'registry' | 'bundle' | 'link';

/** What would be added, shown before anything is: the entry with `${install:KEY}` where an input's value goes. */
export interface InstallPlanView {
  source: InstallSourceKind;
  /** The config key it is added under. */
  name: string;
  title: string;
  description?: string;
  version?: string;
  /** registry: the registry name (io.github.owner/server); bundle: the manifest name. */
  origin: string;
  entry: ServerEntry;
  inputs: InstallInput[];
  /** The full command line (stdio) or the URL (remote), as it will run, secrets shown as references. */
  commandLine: string;
  /** Things a person should know (a non-default package registry, an unverified bundle, …): the notices' English text. */
  notes: string[];
  /** The same notes, each with a code and data to word it in the reader's language (`bundle.note.<code>`). */
  notices: InstallNote[];
  /** bundle: the verdict on its signature (also among the notices). */
  signature?: BundleSignatureView;
  /** registry: how it can be installed (npm, pypi, oci, remote), and which one this plan uses. */
  alternatives?: string[];
  uses?: string;
}

/** The notes an install plan can carry; each is worded by `bundle.note.<code>` with the note's data. */
export type InstallNoteCode =
  | 'unpackedTo'
  | 'replaces'
  | 'unsigned'
  | 'verified'
  | 'selfSigned'
  | 'untrusted'
  | 'expired'
  | 'notYetValid'
  | 'notForCode'
  | 'downloaded'
  | 'customRegistry'
  | 'fromLink';

export interface InstallNote {
  code: InstallNoteCode;
  /** The placeholders of its wording. */
  data: Record<string, string>;
  /** In English (what `notes` holds). */
  text: string;
  /** ok: a verified signature; warning: something to check (an unverified publisher, …); info: the rest. */
  tone: 'ok' | 'warning' | 'info';
}

/**
 * A bundle's signature (MCPB: PKCS#7 over the unsigned zip). A signature that does not match the bytes, or a damaged
 * signature block, is refused before any plan exists; what is left is who signed it and whether that can be trusted.
 * verified: the certificate is valid today and chains to a trusted root. self-signed / untrusted (chains to no
 * trusted root) / expired / not-yet-valid / not-for-code (its extended key usage excludes code signing): installable,
 * but the publisher is not verified, as with an unsigned bundle.
 */
export type BundleSignatureStatus = 'unsigned' | 'verified' | 'self-signed' | 'untrusted' | 'expired' | 'not-yet-valid' | 'not-for-code';

export interface BundleSignatureView {
  status: BundleSignatureStatus;
  /** The signer certificate's subject: its common name and organization, as shown ("CN (O)"). */
  signer?: string;
  commonName?: string;
  organization?: string;
  /** The issuer's common name / organization. */
  issuer?: string;
  /** ISO dates of the signer certificate's validity. */
  validFrom?: string;
  validTo?: string;
  /** SHA-256 fingerprint of the signer certificate (AA:BB:…). */
  fingerprint?: string;
}

/** A registry entry in the catalogue. */
export interface RegistryServerView {
  name: string;
  title?: string;
  description: string;
  version: string;
  status: 'active' | 'deprecated' | 'deleted';
  statusMessage?: string;
  /** npm, pypi, oci, mcpb, … and `remote` for each remote. */
  kinds: string[];
  repositoryUrl?: string;
  websiteUrl?: string;
  /** Why it cannot be installed (deprecated, deleted, nothing supported), when it cannot. */
  refused?: string;
}

export interface RegistrySearchView {
  registry: string;
  servers: RegistryServerView[];
  nextCursor?: string;
}

export interface InstallResultView {
  name: string;
  /** Secrets stored for it (names only). */
  secretsStored: string[];
  /** The app asks before it starts (a stdio entry, or a remote one that sends a secret: trust/consent.ts). */
  needsApproval: boolean;
  /** bundle: where its files are. */
  installedAt?: string;
}

export interface InstallResults {
  /** One page of the MCP Registry's catalogue. */
  'registry:search': RegistrySearchView;
  /** What would be added (full command, values it takes); nothing is written. */
  'install:prepare': InstallPlanView;
  'install:apply': InstallResultView;
  'install:uninstall': void;
  /** A `switchboard://install` link not shown yet, or null. */
  'install:pending': string | null;
}

export interface InstallEvents {
  /** The OS handed the app a `switchboard://install` link: show its install dialog. */
  'install:offered': { url: string };
}

/** Each install channel and event once, at runtime (the preload and the IPC gateway register them by name). */
export const installChannelNames = {
  'registry:search': true,
  'install:prepare': true,
  'install:apply': true,
  'install:uninstall': true,
  'install:pending': true,
} as const satisfies Record<keyof InstallResults, true>;
export const installEventNames = { 'install:offered': true } as const satisfies Record<keyof InstallEvents, true>;
