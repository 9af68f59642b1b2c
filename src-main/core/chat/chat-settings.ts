import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { writeFileAtomicSync } from '../support/data-files';
import { withFileLockSync } from '../support/file-lock';
import type { ChatSettingsPatch, ChatSettingsView, ProviderId, Toolset } from '../../../src-shared/contract/chat';
import { CoreError } from '../errors';
import { parseToolsets } from './toolsets';

/** The chat's own settings (no secrets: keys live in the SecretStore), a small JSON file in the data folder. */

const fileSchema = z.object({
  model: z.string().optional(),
  approval: z.enum(['ask', 'readonly', 'all', 'none']).catch('ask').default('ask'),
  maxSteps: z.number().int().min(1).max(100).catch(10).default(10),
  disabledTools: z.array(z.string()).catch([]).default([]),
  alwaysAllow: z.array(z.string()).catch([]).default([]),
  toolLoading: z.enum(['auto', 'all', 'search']).catch('auto').default('auto'),
  providers: z
    .record(z.string(), z.object({ baseURL: z.string().optional() }))
    .catch({})
    .default({}),
  /** Checked by parseToolsets (errors name the set); kept as written so a typo is reported, not dropped. */
  toolsets: z.unknown().optional(),
  defaultToolset: z.string().optional().catch(undefined),
});
type ChatSettingsFile = z.infer<typeof fileSchema>;

export const defaultMaxSteps = 10;

/** A patch as `chat:update-settings` takes it: the toolsets are checked here, where errors can name the set. */
export type ChatSettingsUpdate = Omit<ChatSettingsPatch, 'toolsets'> & { toolsets?: unknown[] };

export class ChatSettingsStore {
  private data: ChatSettingsFile;

  /** `file` undefined keeps everything in memory (tests). */
  constructor(private readonly file: string | undefined) {
    this.data = this.read() ?? fileSchema.parse({});
  }

  /** The file's settings; undefined without a file. None yet, or unreadable: the defaults (rewritten on the next change). */
  private read(): ChatSettingsFile | undefined {
    if (!this.file) return undefined;
    let raw: unknown = {};
    try {
      raw = JSON.parse(readFileSync(this.file, 'utf8'));
    } catch {
      // none yet, or unreadable
    }
    const parsed = fileSchema.safeParse(raw);
    return parsed.success ? parsed.data : fileSchema.parse({});
  }

  view(): ChatSettingsView {
    const { model, approval, maxSteps, disabledTools, alwaysAllow, toolLoading } = this.data;
    const { toolsets, defaultToolset, error } = this.toolsets();
    return {
      ...(model !== undefined ? { model } : {}),
      approval,
      maxSteps,
      disabledTools: [...disabledTools],
      alwaysAllow: [...alwaysAllow],
      toolLoading,
      toolsets,
      ...(defaultToolset !== undefined ? { defaultToolset } : {}),
      ...(error !== undefined ? { toolsetsError: error } : {}),
    };
  }

  /** The usable sets, the default when it names one of them, and what is wrong with the rest. */
  private toolsets(): { toolsets: Toolset[]; defaultToolset?: string; error?: string } {
    const { toolsets, error } = parseToolsets(this.data.toolsets);
    const wanted = this.data.defaultToolset;
    if (wanted === undefined || toolsets.some((t) => t.name === wanted))
      return { toolsets, ...(wanted !== undefined ? { defaultToolset: wanted } : {}), ...(error !== undefined ? { error } : {}) };
    const missing = `defaultToolset ${JSON.stringify(wanted)} names no toolset: define it under toolsets, or clear it (all tools are offered meanwhile)`;
    return { toolsets, error: error === undefined ? missing : `${error}; ${missing}` };
  }

  /** The set called `name`, or undefined. */
  toolset(name: string): Toolset | undefined {
    return this.toolsets().toolsets.find((t) => t.name === name);
  }

  update(patch: ChatSettingsUpdate): ChatSettingsView {
    let toolsets: Toolset[] | undefined;
    if (patch.toolsets !== undefined) {
      const parsed = parseToolsets(patch.toolsets);
      if (parsed.error !== undefined) throw new CoreError('invalid-argument', `${parsed.error}.`);
      toolsets = parsed.toolsets;
    }
    const names = (toolsets ?? this.toolsets().toolsets).map((t) => t.name);
    if (typeof patch.defaultToolset === 'string' && !names.includes(patch.defaultToolset)) {
      throw new CoreError(
        'invalid-argument',
        `defaultToolset ${JSON.stringify(patch.defaultToolset)} names no toolset (there are: ${names.map((n) => JSON.stringify(n)).join(', ') || 'none'}).`,
      );
    }
    this.change((data) => {
      const next: ChatSettingsFile = { ...data };
      if ('model' in patch) {
        if (patch.model === undefined) delete next.model;
        else next.model = patch.model;
      }
      if (patch.approval !== undefined) next.approval = patch.approval;
      if (patch.maxSteps !== undefined) next.maxSteps = patch.maxSteps;
      if (patch.toolLoading !== undefined) next.toolLoading = patch.toolLoading;
      if (patch.disabledTools !== undefined) next.disabledTools = [...new Set(patch.disabledTools)].sort();
      if (patch.alwaysAllow !== undefined) next.alwaysAllow = [...new Set(patch.alwaysAllow)].sort();
      if (toolsets !== undefined) {
        next.toolsets = toolsets;
        // The default set deleted (or renamed without saying so): new conversations get all tools.
        if (next.defaultToolset !== undefined && !toolsets.some((t) => t.name === next.defaultToolset)) delete next.defaultToolset;
      }
      if (patch.defaultToolset === null) delete next.defaultToolset;
      else if (patch.defaultToolset !== undefined) next.defaultToolset = patch.defaultToolset;
      return next;
    });
    return this.view();
  }

  allowAlways(key: string): void {
    // Added to what the file holds now (another window or process may have allowed others meanwhile).
    this.change((data) => (data.alwaysAllow.includes(key) ? data : { ...data, alwaysAllow: [...data.alwaysAllow, key].sort() }));
  }

  baseURL(id: ProviderId): string | undefined {
    return this.data.providers[id]?.baseURL;
  }

  setBaseURL(id: ProviderId, baseURL: string | undefined): void {
    this.change((data) => {
      const providers = { ...data.providers };
      if (baseURL === undefined) delete providers[id];
      else providers[id] = { baseURL };
      return { ...data, providers };
    });
  }

  /**
   * Applies `edit` to the settings as the file holds them now — read under the file's lock, so a change another
   * process made since this one read the file is kept — and writes the result.
   */
  private change(edit: (data: ChatSettingsFile) => ChatSettingsFile): void {
    const file = this.file;
    if (!file) {
      this.data = edit(this.data);
      return;
    }
    withFileLockSync(file, () => {
      const next = edit(this.read() ?? this.data);
      writeFileAtomicSync(file, `${JSON.stringify(next, null, 2)}\n`);
      this.data = next;
    });
  }
}
