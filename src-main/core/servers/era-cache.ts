import { readFileSync } from 'node:fs';
import type { PriorDiscovery } from '@modelcontextprotocol/client';
import { writeFileAtomicSync } from '../support/data-files';

/**
 * An era verdict as kept here: the SDK's, or the legacy era chosen because the server sent a request to the host
 * (`pushStyle`: its method, e.g. `elicitation/create`) that 2026-07-28 has no channel for (see era-fallback.ts).
 */
export type EraVerdict = PriorDiscovery | { kind: 'legacy'; pushStyle: string };

/**
 * The protocol-era verdict per server: a stdio server keyed by (command, args, cwd), a remote one by its URL. With
 * it, a warm start skips the `server/discover` probe: a modern server is adopted with zero round trips, a legacy one
 * goes straight to `initialize`. A verdict that fails on use is forgotten and the probe runs again.
 */
export class EraCache {
  private entries: Record<string, EraVerdict>;

  constructor(private readonly file: string | undefined) {
    this.entries = {};
    if (file === undefined) return;
    try {
      const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
      if (typeof parsed === 'object' && parsed !== null) this.entries = parsed as Record<string, EraVerdict>;
    } catch {
      // No cache yet, or an unreadable one: start empty.
    }
  }

  static key(command: string, args: readonly string[], cwd: string | undefined): string {
    return JSON.stringify([command, args, cwd ?? '']);
  }

  static remoteKey(url: string): string {
    return JSON.stringify(['url', url]);
  }

  get(key: string): EraVerdict | undefined {
    const entry = this.entries[key];
    return entry && (entry.kind === 'legacy' || entry.kind === 'modern') ? entry : undefined;
  }

  set(key: string, verdict: EraVerdict): void {
    this.entries[key] = verdict;
    this.save();
  }

  delete(key: string): void {
    if (!(key in this.entries)) return;
    delete this.entries[key];
    this.save();
  }

  private save(): void {
    if (this.file === undefined) return;
    try {
      // Whole command lines: 0600, through a temp file of this pid (a stray one is removed at the next start).
      writeFileAtomicSync(this.file, JSON.stringify(this.entries), { fsync: false });
    } catch {
      // A cache that cannot be written only costs a probe next time.
    }
  }
}

/** What the SDK is given of a verdict (its own shape only). */
export function priorOf(verdict: EraVerdict | undefined): PriorDiscovery | undefined {
  if (verdict === undefined) return undefined;
  return verdict.kind === 'legacy' ? { kind: 'legacy' } : verdict;
}

/** The request method a legacy verdict was chosen for, if it was a push-style fallback. */
export function pushStyleOf(verdict: EraVerdict | undefined): string | undefined {
  return verdict !== undefined && 'pushStyle' in verdict && typeof verdict.pushStyle === 'string' ? verdict.pushStyle : undefined;
}
