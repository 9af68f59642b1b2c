import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { isFile } from './file-kind';

/*
 * A server's private folder in the data folder (`<data folder>/sandbox/<name>`): its package caches, which the
 * sandbox binds over the usual cache paths so that nothing it writes is ever run by something outside its sandbox,
 * and the empty file that masks files.
 */

/** A server name as a folder name: as it is when that is safe, else made safe and told apart by a hash. */
export function folderNameOf(name: string): string {
  if (/^[A-Za-z0-9_-][A-Za-z0-9._-]{0,80}$/.test(name)) return name;
  return `${name
    .replace(/[^A-Za-z0-9._-]/g, '_')
    .replace(/^\./, '_')
    .slice(0, 60)}-${createHash('sha256').update(name).digest('hex').slice(0, 12)}`;
}

/** A server's private sandbox folder under `root` (`<data folder>/sandbox`). */
export function privateFolderOf(root: string, name: string): string {
  return join(root, folderNameOf(name));
}

/** What a removed server leaves: its private sandbox folder (caches) goes with it. */
export function removePrivateFolder(root: string, name: string): void {
  rmSync(privateFolderOf(root, name), { recursive: true, force: true });
}

/**
 * The private caches and where the package tools look for them inside: `npm` over ~/.npm, `xdg` over ~/.cache (uv,
 * pip, pnpm, yarn, bun and whatever else follows XDG), with each tool's own setting pointed there too, so that a
 * cache path of the person's own (an allow-listed UV_CACHE_DIR, say) never reaches inside.
 */
export function cacheLayout(cache: string, home: string): { binds: Array<[string, string]>; env: Record<string, string> } {
  const npm = join(home, '.npm');
  const xdg = join(home, '.cache');
  return {
    binds: [
      [join(cache, 'npm'), npm],
      [join(cache, 'xdg'), xdg],
    ],
    env: {
      npm_config_cache: npm,
      XDG_CACHE_HOME: xdg,
      UV_CACHE_DIR: join(xdg, 'uv'),
      UV_PYTHON_INSTALL_DIR: join(xdg, 'uv-python'),
      PIP_CACHE_DIR: join(xdg, 'pip'),
      // pnpm keeps its store under its home folder (npm warns about a `store-dir` setting it does not know).
      PNPM_HOME: join(xdg, 'pnpm-home'),
      YARN_CACHE_FOLDER: join(xdg, 'yarn'),
      BUN_INSTALL_CACHE_DIR: join(xdg, 'bun'),
    },
  };
}

/** The package names an `npx`/`npm exec` command line asks for: `--package`/`-p` values, else the first positional. */
export function npxPackages(args: readonly string[]): string[] {
  const named: string[] = [];
  let first: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === '--') break;
    if (arg === '-p' || arg === '--package') named.push(args[++i] ?? '');
    else if (arg.startsWith('--package=')) named.push(arg.slice('--package='.length));
    else if (arg === 'exec' && first === undefined && named.length === 0) continue;
    else if (!arg.startsWith('-') && first === undefined) first = arg;
  }
  const specs = named.length > 0 ? named : first !== undefined ? [first] : [];
  // `@scope/name@1.2` → `@scope/name`; `name@latest` → `name`.
  return specs.map((spec) => spec.replace(/(?!^)@.*$/, '')).filter((n) => n !== '');
}

/**
 * Seeds a private npm cache from the person's: each `_npx/<hash>` install of exactly the packages this command line
 * runs is copied (never linked: the copy is the server's to change), so a package already fetched unsandboxed is not
 * downloaded again. Best effort: whatever cannot be copied is fetched as usual.
 */
export function seedNpxCache(userNpm: string, privateNpm: string, args: readonly string[]): string[] {
  const wanted = new Set(npxPackages(args));
  if (wanted.size === 0) return [];
  const seeded: string[] = [];
  let installs: string[];
  try {
    installs = readdirSync(join(userNpm, '_npx'));
  } catch {
    return [];
  }
  for (const hash of installs) {
    const target = join(privateNpm, '_npx', hash);
    if (existsSync(target)) continue;
    try {
      const manifest = JSON.parse(readFileSync(join(userNpm, '_npx', hash, 'package.json'), 'utf8')) as { dependencies?: Record<string, unknown> };
      const names = Object.keys(manifest.dependencies ?? {});
      if (names.length !== wanted.size || !names.every((n) => wanted.has(n))) continue;
      // Copied beside and renamed: npx never sees half an install.
      const partial = `${target}.${process.pid}.partial`;
      mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
      cpSync(join(userNpm, '_npx', hash), partial, { recursive: true, verbatimSymlinks: true });
      renameSync(partial, target);
      seeded.push(hash);
    } catch {
      // Not an install, or unreadable: npx fetches it.
    }
  }
  return seeded;
}

/**
 * The private folder is ready: its cache folders exist (0700), the npm one seeded from the person's for an `npx`
 * launch, and an empty read-only file masks files (a bind of /dev/null is a device on a `nodev` mount: EACCES).
 * Returns that empty file.
 */
export function preparePrivate(folder: string, home: string, command: string, args: readonly string[]): string {
  const cache = join(folder, 'cache');
  for (const [dir] of cacheLayout(cache, home).binds) mkdirSync(dir, { recursive: true, mode: 0o700 });
  const empty = join(folder, 'empty');
  if (!isFile(empty)) writeFileSync(empty, '', { mode: 0o444 });
  const name = basename(command).replace(/\.(cmd|exe)$/i, '');
  if (name === 'npx' || (name === 'npm' && args[0] === 'exec')) seedNpxCache(join(home, '.npm'), join(cache, 'npm'), args);
  return empty;
}
