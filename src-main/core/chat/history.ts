import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ChatMessage, Conversation, ConversationSummary } from '../../../src-shared/contract/chat';
import { tempFileFor } from '../support/data-files';
import { CoreError } from '../errors';

/**
 * Conversations on disk: one JSON file each under `<dataDir>/conversations/`, written atomically (at the start
 * and end of each turn), loaded once, kept in memory. Resuming after a restart is reading them back.
 */

const idPattern = /^[A-Za-z0-9-]{1,100}$/;

export function titleFrom(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 60 ? `${line.slice(0, 57)}…` : line || 'New conversation';
}

function textOf(message: ChatMessage): string {
  if (message.role === 'user') return message.text;
  return message.parts.map((p) => (p.type === 'text' ? p.text : `${p.server} ${p.tool}`)).join(' ');
}

function isConversation(value: unknown): value is Conversation {
  if (typeof value !== 'object' || value === null) return false;
  const c = value as Record<string, unknown>;
  return typeof c.id === 'string' && typeof c.title === 'string' && Array.isArray(c.messages);
}

export class ConversationStore {
  private conversations: Map<string, Conversation> | undefined;
  private readonly writes = new Map<string, Promise<void>>();
  private readonly deleted = new Set<string>();

  /** `dir` undefined keeps everything in memory (tests). */
  constructor(private readonly dir: string | undefined) {}

  private all(): Map<string, Conversation> {
    if (this.conversations) return this.conversations;
    this.conversations = new Map();
    this.rescan(true);
    return this.conversations;
  }

  /** Loads conversation files not known yet (the CLI and another window write to the same folder). */
  private rescan(first = false): void {
    const map = this.conversations;
    if (!this.dir || !map) return;
    let names: string[] = [];
    try {
      names = readdirSync(this.dir);
    } catch {
      return; // no folder yet
    }
    for (const name of names) {
      const path = join(this.dir, name);
      if (name.endsWith('.tmp')) {
        // Leftovers of a write that a crash interrupted (old ones only: someone may be writing right now).
        const mtime = first ? statSync(path, { throwIfNoEntry: false })?.mtimeMs : undefined;
        if (mtime !== undefined && Date.now() - mtime > 60_000) rmSync(path, { force: true });
        continue;
      }
      const id = name.slice(0, -'.json'.length);
      if (!name.endsWith('.json') || map.has(id) || this.deleted.has(id)) continue;
      try {
        const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
        if (isConversation(parsed) && parsed.id === id && idPattern.test(id)) {
          // A turn that was streaming when its writer stopped is over now.
          if (first) for (const m of parsed.messages) if (m.role === 'assistant' && m.status === 'streaming') m.status = 'stopped';
          map.set(id, { ...parsed, messageCount: parsed.messages.length });
        }
      } catch {
        // a damaged (or half-written) file is skipped, not deleted
      }
    }
  }

  /**
   * A new conversation: under `wantedId` when the window chose one (it opens the conversation before the host has
   * answered, so a second call sent meanwhile lands in the same one), unless that id is taken, malformed or was
   * deleted (another window): then under a fresh id, which the caller gets back.
   */
  create(firstText: string, wantedId?: string): Conversation {
    const now = Date.now();
    const usable = wantedId !== undefined && idPattern.test(wantedId) && !this.deleted.has(wantedId) && !this.all().has(wantedId);
    const conversation: Conversation = {
      id: usable ? wantedId : randomUUID(),
      title: titleFrom(firstText),
      createdAt: now,
      updatedAt: now,
      messageCount: 0,
      messages: [],
    };
    this.all().set(conversation.id, conversation);
    return conversation;
  }

  /** Imports a whole conversation (benchmarks, tests). */
  put(conversation: Conversation): void {
    this.all().set(conversation.id, conversation);
  }

  get(id: string): Conversation {
    const conversation = idPattern.test(id) ? this.all().get(id) : undefined;
    if (!conversation) throw new CoreError('invalid-argument', `There is no conversation "${id}" (it may have been deleted).`);
    return conversation;
  }

  has(id: string): boolean {
    return this.all().has(id);
  }

  /** Deleted while this host ran (a window may still show it). */
  wasDeleted(id: string): boolean {
    return this.deleted.has(id);
  }

  list(query?: string): ConversationSummary[] {
    this.all();
    this.rescan();
    const needle = query?.trim().toLowerCase() ?? '';
    const out: ConversationSummary[] = [];
    for (const c of this.all().values()) {
      const summary: ConversationSummary = { id: c.id, title: c.title, createdAt: c.createdAt, updatedAt: c.updatedAt, messageCount: c.messages.length };
      if (needle === '') {
        out.push(summary);
        continue;
      }
      if (c.title.toLowerCase().includes(needle)) {
        out.push(summary);
        continue;
      }
      for (const m of c.messages) {
        const text = textOf(m);
        const at = text.toLowerCase().indexOf(needle);
        if (at >= 0) {
          const start = Math.max(0, at - 40);
          out.push({ ...summary, snippet: `${start > 0 ? '…' : ''}${text.slice(start, at + needle.length + 60).replace(/\s+/g, ' ')}` });
          break;
        }
      }
    }
    return out.sort((a, b) => b.updatedAt - a.updatedAt);
  }

  rename(id: string, title: string): void {
    const conversation = this.get(id);
    conversation.title = title.trim().slice(0, 200);
    conversation.updatedAt = Date.now();
    void this.save(id);
  }

  async delete(id: string): Promise<boolean> {
    if (!idPattern.test(id) || !this.all().delete(id)) return false;
    this.deleted.add(id);
    await this.writes.get(id);
    if (this.dir) rmSync(join(this.dir, `${id}.json`), { force: true });
    return true;
  }

  /** Writes one conversation (serialised per conversation; the last write wins). */
  save(id: string): Promise<void> {
    const conversation = this.all().get(id);
    if (!conversation || !this.dir) return Promise.resolve();
    const dir = this.dir;
    conversation.messageCount = conversation.messages.length;
    const previous = this.writes.get(id) ?? Promise.resolve();
    const next = previous
      .then(async () => {
        if (!this.all().has(id)) return;
        mkdirSync(dir, { recursive: true, mode: 0o700 });
        const { snippet: _snippet, ...stored } = conversation;
        // Temp file + rename, by hand: write-file-atomic's async form hooks the process's signals while it
        // writes, and a SIGTERM arriving then ends the process before `serve` can shut down cleanly.
        const file = join(dir, `${id}.json`);
        // Named after this pid, so a temp left by a SIGKILL is known stray at the next start (tidyDataDir); a fresh
        // one each time, so it is 0600 (a leftover would keep its old mode) and the renamed file is too.
        const temp = tempFileFor(file);
        await rm(temp, { force: true });
        await writeFile(temp, JSON.stringify(stored), { mode: 0o600 });
        await rename(temp, file);
      })
      .catch(() => undefined);
    this.writes.set(id, next);
    void next.then(() => {
      if (this.writes.get(id) === next) this.writes.delete(id);
    });
    return next;
  }

  /** Waits for every pending write. */
  async flush(): Promise<void> {
    await Promise.all([...this.writes.values()]);
  }
}
