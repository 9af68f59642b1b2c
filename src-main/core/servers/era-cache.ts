import { readFileSync } from 'node:fs';
import type { PriorDiscovery } from '@modelcontextprotocol/client';
import { writeFileAtomicSync } from '../support/data-files';

/**
 * The protocol-era verdict per stdio server, keyed by (command, args, cwd). With it, a warm start skips the
 * `server/discover` probe: a modern server is adopted with zero round trips, a legacy one goes straight to
 * `initialize`. A verdict that fails on use is forgotten and the probe runs again.
 */
export class EraCache {
  private entries: Record<string, PriorDiscovery>;

  constructor(private readonly file: string | undefined) {
    this.entries = {};
    if (file === undefined) return;
    try {
      const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
      if (typeof parsed === 'object' && parsed !== null) this.entries = parsed as Record<string, PriorDiscovery>;
    } catch {
      // No cache yet, or an unreadable one: start empty.
    }
  }

  static key(command: string, args: readonly string[], cwd: string | undefined): string {
    return JSON.stringify([command, args, cwd ?? '']);
  }

  get(key: string): PriorDiscovery | undefined {
    const entry = this.entries[key];
    return entry && (entry.kind === 'legacy' || entry.kind === 'modern') ? entry : undefined;
  }

  set(key: string, verdict: PriorDiscovery): void {
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
