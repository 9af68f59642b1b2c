import { realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readDotenvFile } from '../config/env';

/** The host's own `.env` files (its LLM keys): read into private objects, never merged into process.env. */
export interface HostDotenvFiles {
  data: Record<string, string>;
  working: Record<string, string>;
}

/** The host's private `.env` (data dir first, the working directory's wins). Never merged into process.env. */
export function readHostDotenv(dataDir: string, envDir: string): Record<string, string> {
  return mergeHostDotenv(readHostDotenvFiles(dataDir, envDir));
}

/** The two files as one: the working directory's values win over the data dir's. */
export function mergeHostDotenv(files: HostDotenvFiles): Record<string, string> {
  return { ...files.data, ...files.working };
}

/**
 * The two `.env` files apart: a key and its base URL must come from the same one, and the working folder's (a
 * cloned repository's) chooses no model or endpoint unconfirmed. Started from the data folder, the one file is the
 * data folder's.
 */
export function readHostDotenvFiles(dataDir: string, envDir: string): HostDotenvFiles {
  const paths = hostDotenvPaths(dataDir, envDir);
  return { data: readDotenvFile(paths.data), working: paths.working === paths.data ? {} : readDotenvFile(paths.working) };
}

/** The two `.env` files' paths, real where they exist (the working folder's confirmations are keyed by it). */
export function hostDotenvPaths(dataDir: string, envDir: string): { data: string; working: string } {
  const real = (path: string): string => {
    try {
      return realpathSync(path);
    } catch {
      return resolve(path);
    }
  };
  return { data: real(join(dataDir, '.env')), working: real(join(envDir, '.env')) };
}
