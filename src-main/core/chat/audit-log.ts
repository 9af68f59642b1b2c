import { appendFileSync, existsSync, readFileSync, renameSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { AuditEntry, SamplingAudit } from '../../../src-shared/contract/chat';
import { ensurePrivateDir, tightenFile } from '../support/data-files';

/** What a sampling handler records (see `AuditLog.recordSampling`). */
export interface SamplingRecord extends SamplingAudit {
  server: string;
  /** The face that answered (default 'app'); 'mcp-app' when a server's MCP App asked, not the server. */
  source?: 'app' | 'cli' | 'mcp-app';
  /** The in-flight call the request is attributed to (its origin), when known. */
  callId?: string;
  tool?: string;
  conversationId?: string;
  /** A readable reason ("no provider is configured…", "more than 3 per minute"). */
  detail?: string;
}

/**
 * Every approval decision and every tool call the model made, and every sampling request a server made, one JSON
 * line each, in the data folder. Rotated once past `maxBytes` (one previous file kept). Arguments are shortened;
 * they are the model's, not the host's. Sampling entries keep sizes, never the messages or the answer.
 */
export class AuditLog {
  private memory: AuditEntry[] = [];
  private tightened = false;

  constructor(
    /** undefined keeps entries in memory (tests). */
    private readonly file: string | undefined,
    private readonly maxBytes = 5 * 1024 * 1024,
  ) {}

  static shorten(args: unknown, max = 2000): string {
    let text: string;
    try {
      text = JSON.stringify(args) ?? 'undefined';
    } catch {
      text = String(args);
    }
    return text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text;
  }

  append(entry: Omit<AuditEntry, 'at'>): void {
    const full: AuditEntry = { at: new Date().toISOString(), ...entry };
    if (!this.file) {
      this.memory.push(full);
      return;
    }
    try {
      ensurePrivateDir(dirname(this.file));
      if (existsSync(this.file) && statSync(this.file).size > this.maxBytes) renameSync(this.file, `${this.file}.1`);
      appendFileSync(this.file, `${JSON.stringify(full)}\n`, { mode: 0o600 });
      // `mode` applies only when the file is created: a file that exists with a looser mode is made 0600 once.
      if (!this.tightened) {
        tightenFile(this.file);
        this.tightened = true;
      }
    } catch {
      // The audit must never break a call; keep it in memory instead.
      this.memory.push(full);
    }
  }

  /**
   * One sampling request (`sampling/createMessage`, or an MRTR input request) and how it ended. The sampling
   * handler calls it once per request, after the answer went back (or the request was refused):
   * `audit.recordSampling({ server, decision: 'approved', model, ...AuditLog.samplingSize(messages, system), resultChars })`.
   */
  recordSampling(record: SamplingRecord): void {
    const { server, source, callId, tool, conversationId, detail, ...sampling } = record;
    this.append({
      kind: 'sampling',
      source: source ?? 'app',
      server,
      ...(conversationId !== undefined ? { conversationId } : {}),
      ...(callId !== undefined ? { callId } : {}),
      ...(tool !== undefined ? { tool } : {}),
      sampling,
      ...(detail !== undefined ? { detail } : {}),
    });
  }

  /** The sizes the audit keeps of a sampling request's messages (text parts) and system prompt. */
  static samplingSize(messages: readonly { text: string }[], systemPrompt?: string): { messages: number; promptChars: number } {
    return { messages: messages.length, promptChars: messages.reduce((n, m) => n + m.text.length, systemPrompt?.length ?? 0) };
  }

  /** The newest first. */
  list(limit = 500): AuditEntry[] {
    const entries: AuditEntry[] = [];
    if (this.file) {
      for (const file of [this.file, `${this.file}.1`]) {
        if (entries.length >= limit) break;
        let text = '';
        try {
          text = readFileSync(file, 'utf8');
        } catch {
          continue;
        }
        const lines = text.split('\n').filter(Boolean).reverse();
        for (const line of lines) {
          if (entries.length >= limit) break;
          try {
            entries.push(JSON.parse(line) as AuditEntry);
          } catch {
            // a torn last line after a crash
          }
        }
      }
    }
    return [...this.memory].reverse().concat(entries).slice(0, limit);
  }
}
