import semver from 'semver';

/*
 * What a registry package's `identifier` and `version` may be, per `registryType`, before they become a command line
 * (`npx -y NAME@VERSION`, `uvx NAME==VERSION`, `docker run … IMAGE`) or a download. Each value must fit its
 * ecosystem's grammar exactly: a URL, a path, a range, a tag such as `latest`, or anything with shell or option
 * characters is refused, so the registry entry can only ever name one published package at one version.
 * Each check returns why a value is refused (field, value, rule), or undefined when it fits.
 */

const show = (value: string | undefined): string => (value === undefined ? 'none' : JSON.stringify(value));

/**
 * npm: a name as validate-npm-package-name accepts for a new package — lowercase, url-safe, at most 214 characters,
 * optionally `@scope/` — and, stricter, starting with a letter or digit (so it can never read as an option).
 */
const npmPart = '[a-z0-9][a-z0-9._-]*';
const npmName = new RegExp(`^(?:@${npmPart}/)?${npmPart}$`);
const npmBlocked = new Set(['node_modules', 'favicon.ico']);

export function npmNameRefusal(identifier: string): string | undefined {
  if (identifier.length <= 214 && npmName.test(identifier) && !npmBlocked.has(identifier)) return undefined;
  return `the npm package's identifier ${show(identifier)} is not an npm package name (lowercase letters, digits, "-", "." and "_", starting with a letter or digit, optionally @scope/, at most 214 characters)`;
}

/** An exact semver version (1.2.3, 1.2.3-beta.1): no range, no tag, no leading "v" or "=". */
export function isExactSemver(version: string | undefined): boolean {
  if (version === undefined) return false;
  const parsed = semver.parse(version);
  if (!parsed) return false;
  return version === (parsed.build.length > 0 ? `${parsed.version}+${parsed.build.join('.')}` : parsed.version);
}

export function npmVersionRefusal(identifier: string, version: string | undefined): string | undefined {
  if (isExactSemver(version)) return undefined;
  return `the npm package ${identifier} has no exact version to pin: version ${show(version)} is not an exact semver version (such as 1.2.3 or 1.2.3-beta.1; no ranges or tags)`;
}

/** PyPI: a PEP 508 project name. */
const pypiName = /^([A-Z0-9]|[A-Z0-9][A-Z0-9._-]*[A-Z0-9])$/i;

export function pypiNameRefusal(identifier: string): string | undefined {
  if (pypiName.test(identifier)) return undefined;
  return `the PyPI package's identifier ${show(identifier)} is not a PyPI project name (PEP 508: letters, digits, ".", "_" and "-", starting and ending with a letter or digit)`;
}

/** A PEP 440 public version (epoch, release, pre-, post-, dev-release); no local version (`+…`), no specifier. */
const pypiVersion = /^(\d+!)?\d+(\.\d+)*((a|b|rc)\d+)?(\.post\d+)?(\.dev\d+)?$/;

export function pypiVersionRefusal(identifier: string, version: string | undefined): string | undefined {
  if (version !== undefined && pypiVersion.test(version)) return undefined;
  return `the PyPI package ${identifier} has no exact version to pin: version ${show(version)} is not an exact PEP 440 public version (such as 2025.4.7, 1.0rc1 or 1.0.post2)`;
}

/*
 * OCI: the distribution reference grammar, `[registry[:port]/]path[:tag][@sha256:HEX]`, with lowercase path
 * components and a sha256 digest (the only algorithm pinned here).
 */
const ociDomain = '(?:[A-Za-z0-9]|[A-Za-z0-9][A-Za-z0-9-]*[A-Za-z0-9])(?:\\.(?:[A-Za-z0-9]|[A-Za-z0-9][A-Za-z0-9-]*[A-Za-z0-9]))*(?::\\d+)?';
const ociComponent = '[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*';
const ociTag = '[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}';
const ociReference = new RegExp(`^(?:${ociDomain}/)?${ociComponent}(?:/${ociComponent})*(?::(${ociTag}))?(@sha256:[0-9a-f]{64})?$`);
const ociTagPattern = new RegExp(`^${ociTag}$`);

/** The parts of an OCI reference, or undefined when it does not fit the grammar. */
export function parseOciReference(identifier: string): { tag?: string; digest?: string } | undefined {
  // A registry host with a port and no path (`host:5000`) reads as name:tag; the grammar then decides.
  const match = ociReference.exec(identifier);
  if (!match) return undefined;
  return { ...(match[1] !== undefined ? { tag: match[1] } : {}), ...(match[2] !== undefined ? { digest: match[2].slice(1) } : {}) };
}

export function ociReferenceRefusal(identifier: string): string | undefined {
  if (parseOciReference(identifier)) return undefined;
  return `the OCI package's identifier ${show(identifier)} is not an image reference ([registry/]path[:tag][@sha256:digest], lowercase path components)`;
}

/** An exact version usable as an image tag: 1.2.3, v1.2.3, 1.2.3-rc.1 — never latest or a floating 1.x. */
export function isExactTag(tag: string | undefined): boolean {
  return tag !== undefined && ociTagPattern.test(tag) && /^v?\d+(\.\d+){0,3}(-[0-9A-Za-z.-]+)?$/.test(tag);
}
