import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { writeFileAtomicSync } from '../data-files';
import type { ChatSettingsPatch, ChatSettingsView, ProviderId } from '../../../src-shared/chat-types';

/** The chat's own settings (no secrets: keys live in the SecretStore), a small JSON file in the data folder. */

const fileSchema = z.object({
  model: z.string().optional(),
  approval: z.enum(['ask', 'readonly', 'all', 'none']).catch('ask').default('ask'),
  maxSteps: z.number().int().min(1).max(100).catch(10).default(10),
  disabledTools: z.array(z.string()).catch([]).default([]),
  alwaysAllow: z.array(z.string()).catch([]).default([]),
  providers: z.record(z.string(), z.object({ baseURL: z.string().optional() })).catch({}).default({}),
});
type ChatSettingsFile = z.infer<typeof fileSchema>;

export const defaultMaxSteps = 10;

export class ChatSettingsStore {
  private data: ChatSettingsFile;

  /** `file` undefined keeps everything in memory (tests). */
  constructor(private readonly file: string | undefined) {
    let raw: unknown = {};
    try {
      if (file) raw = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      // none yet, or unreadable: start from defaults (the file is rewritten on the next change)
    }
    const parsed = fileSchema.safeParse(raw);
    this.data = parsed.success ? parsed.data : fileSchema.parse({});
  }

  view(): ChatSettingsView {
    const { model, approval, maxSteps, disabledTools, alwaysAllow } = this.data;
    return { ...(model !== undefined ? { model } : {}), approval, maxSteps, disabledTools: [...disabledTools], alwaysAllow: [...alwaysAllow] };
  }

  update(patch: ChatSettingsPatch): ChatSettingsView {
    const next: ChatSettingsFile = { ...this.data };
    if ('model' in patch) {
      if (patch.model === undefined) delete next.model;
      else next.model = patch.model;
    }
    if (patch.approval !== undefined) next.approval = patch.approval;
    if (patch.maxSteps !== undefined) next.maxSteps = patch.maxSteps;
    if (patch.disabledTools !== undefined) next.disabledTools = [...new Set(patch.disabledTools)].sort();
    if (patch.alwaysAllow !== undefined) next.alwaysAllow = [...new Set(patch.alwaysAllow)].sort();
    this.data = next;
    this.save();
    return this.view();
  }

  allowAlways(key: string): void {
    if (this.data.alwaysAllow.includes(key)) return;
    this.update({ alwaysAllow: [...this.data.alwaysAllow, key] });
  }

  baseURL(id: ProviderId): string | undefined {
    return this.data.providers[id]?.baseURL;
  }

  setBaseURL(id: ProviderId, baseURL: string | undefined): void {
    const providers = { ...this.data.providers };
    if (baseURL === undefined) delete providers[id];
    else providers[id] = { baseURL };
    this.data = { ...this.data, providers };
    this.save();
  }

  private save(): void {
    if (!this.file) return;
    writeFileAtomicSync(this.file, `${JSON.stringify(this.data, null, 2)}\n`);
  }
}
