import type { JSONPath } from 'jsonc-parser';
import type { ServerEntry } from '../../../src-shared/schemas/config';
import { messageOf } from '../errors';
import type { ChildRuntime } from './runtime';
import { ConfigStore, setAt, type TextEdit } from './store';

/**
 * Whether an entry is how versions before the fuses started a bundled script: the app's own binary turned into
 * Node by `ELECTRON_RUN_AS_NODE=1` (the packaged app now ignores that variable).
 */
export function isLegacyLaunch(entry: ServerEntry, runtime: ChildRuntime): boolean {
  return runtime.args.length > 0 && entry.command === runtime.command && entry.env?.ELECTRON_RUN_AS_NODE === '1';
}

/** The entry in today's form: the run-script flag before its arguments, and no ELECTRON_RUN_AS_NODE. */
export function upgradedLaunch(entry: ServerEntry, runtime: ChildRuntime): { args: string[]; env: Record<string, string> | undefined } {
  const env = Object.fromEntries(Object.entries(entry.env ?? {}).filter(([name]) => name !== 'ELECTRON_RUN_AS_NODE'));
  return { args: [...runtime.args, ...(entry.args ?? [])], env: Object.keys(env).length > 0 ? env : undefined };
}

/**
 * Rewrites, once, the servers in `configFile` that an older version wrote in the ELECTRON_RUN_AS_NODE form (the
 * first-run calculator) into the run-script form, keeping the file's comments and formatting (and a backup, as
 * every app edit does). A file that does not exist or does not parse is left alone. Returns the names rewritten.
 */
export async function upgradeLegacyLaunches(configFile: string, runtime: ChildRuntime, log: (line: string) => void): Promise<string[]> {
  const store = new ConfigStore(configFile);
  try {
    const { config, error } = store.snapshot();
    if (error) return [];
    const names = Object.entries(config.mcpServers)
      .filter(([, entry]) => isLegacyLaunch(entry, runtime))
      .map(([name]) => name);
    if (names.length === 0) return [];
    const edits: TextEdit[] = names.flatMap((name) => {
      const entry = config.mcpServers[name];
      if (!entry) return [];
      const next = upgradedLaunch(entry, runtime);
      const at = (key: string): JSONPath => ['mcpServers', name, key];
      return [setAt(at('args'), next.args), setAt(at('env'), next.env)];
    });
    await store.update((text) => edits.reduce((current, edit) => edit(current), text), 'upgrade how bundled scripts are started');
    log(`${configFile}: ${names.join(', ')} now start with ${runtime.args.join(' ')} instead of ELECTRON_RUN_AS_NODE=1`);
    return names;
  } catch (error) {
    log(`could not upgrade ${configFile} (${messageOf(error)}); servers started with ELECTRON_RUN_AS_NODE=1 will not start`);
    return [];
  } finally {
    await store.dispose();
  }
}
