import { type Dirent, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { isInside } from '../../support/paths';
import { isFile } from './file-kind';

const envFileName = /^\.env(\..+)?$/;

/** How far the search for `.env` files in the folders a sandbox shows goes (docs/security.md, "Consent and sandbox"). */
export const envFileSearch = { depth: 4, folders: 2000 };

/**
 * The `.env` files (`.env`, `.env.local`, …) in these folders, to be masked: down to `envFileSearch.depth` levels,
 * at most `envFileSearch.folders` folders in all, skipping node_modules, .git and the `skip` folders (the server's
 * own package, what is masked anyway). Symbolic links are not followed.
 */
export function findEnvFiles(roots: readonly string[], skip: readonly string[]): string[] {
  const found: string[] = [];
  let budget = envFileSearch.folders;
  const queue: Array<[string, number]> = [];
  for (const root of roots) {
    if (skip.some((s) => isInside(root, s))) continue;
    if (envFileName.test(basename(root)) && isFile(root)) found.push(root);
    else queue.push([root, 0]);
  }
  while (queue.length > 0 && budget > 0) {
    const [folder, depth] = queue.shift() as [string, number];
    budget--;
    let entries: Dirent[];
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      const path = join(folder, entry.name);
      if (entry.isFile() && envFileName.test(entry.name)) found.push(path);
      else if (
        entry.isDirectory() &&
        depth < envFileSearch.depth &&
        entry.name !== 'node_modules' &&
        entry.name !== '.git' &&
        !skip.some((s) => isInside(path, s))
      )
        queue.push([path, depth + 1]);
    }
  }
  return [...new Set(found)];
}
