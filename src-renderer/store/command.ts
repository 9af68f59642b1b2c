import type { PromptInfo, ServerView, ToolInfo } from '../../src-shared/host-api';
import { i18n, reasonText } from '../i18n';
import { isAppOnly } from '../../src-shared/tool-ui';

/** What the person typed in the chat box. */
export type ParsedCommand =
  | { kind: 'empty' }
  | { kind: 'help' }
  | { kind: 'text'; text: string }
  | { kind: 'call'; name: string; args: Record<string, unknown> }
  | { kind: 'invalid'; message: string };

/** What `/help` says, in the UI's language. */
export function helpText(): string {
  return i18n.t('command.help');
}

/** `/name {json}` — the JSON (an object) is optional and may follow the name with or without a space. */
export function parseCommand(input: string): ParsedCommand {
  const text = input.trim();
  if (text === '') return { kind: 'empty' };
  if (!text.startsWith('/')) return { kind: 'text', text };
  const match = /^\/([^\s{]+)\s*([\s\S]*)$/.exec(text);
  const name = match?.[1];
  if (match === null || name === undefined) {
    return { kind: 'invalid', message: i18n.t('command.needName') };
  }
  const rest = (match[2] ?? '').trim();
  if (name === 'help' && rest === '') return { kind: 'help' };
  if (rest === '') return { kind: 'call', name, args: {} };
  let value: unknown;
  try {
    value = JSON.parse(rest);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return { kind: 'invalid', message: i18n.t('command.badJson', { name, detail }) };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { kind: 'invalid', message: i18n.t('command.notObject', { name }) };
  }
  return { kind: 'call', name, args: value as Record<string, unknown> };
}

export type Resolution = { ok: true; server: string; tool: ToolInfo } | { ok: false; message: string };

const qualify = (server: string, tool: string): string => `/${server}.${tool}`;

/**
 * Finds the tool a `/name` means: a bare tool name across ready servers, or `server.tool` / `server/tool`.
 * Every reading of the name is considered, so an ambiguity is reported rather than silently picked.
 */
export function resolveTool(name: string, servers: readonly ServerView[]): Resolution {
  const ready = servers.filter((s) => s.status === 'ready' && !s.disabled);
  const found = new Map<string, { server: string; tool: ToolInfo }>();
  const add = (server: string, tool: ToolInfo): void => {
    found.set(`${server}\u0000${tool.name}`, { server, tool });
  };

  for (const server of ready) {
    for (const tool of server.tools) if (tool.name === name) add(server.name, tool);
  }

  const notReady: ServerView[] = [];
  const missingTool: { server: ServerView; tool: string }[] = [];
  for (const server of servers) {
    for (const separator of ['.', '/']) {
      const prefix = server.name + separator;
      if (!name.startsWith(prefix) || name.length === prefix.length) continue;
      const toolName = name.slice(prefix.length);
      if (server.status !== 'ready' || server.disabled) {
        notReady.push(server);
        continue;
      }
      const tool = server.tools.find((t) => t.name === toolName);
      if (tool) add(server.name, tool);
      else missingTool.push({ server, tool: toolName });
    }
  }

  const matches = [...found.values()];
  const only = matches[0];
  if (matches.length === 1 && only) return { ok: true, ...only };
  if (matches.length > 1) {
    const options = matches.map((m) => qualify(m.server, m.tool.name)).join(', ');
    return { ok: false, message: i18n.t('command.ambiguous', { name, options }) };
  }

  const blocked = notReady[0];
  if (blocked) {
    const why = blocked.disabled
      ? i18n.t('command.disabledWhy')
      : blocked.status === 'error' || blocked.status === 'crash-loop'
        ? blocked.error
          ? i18n.t('command.errorWhyDetail', { error: reasonText(blocked.error, blocked.errorInfo) })
          : i18n.t('command.errorWhy')
        : i18n.t('command.statusWhy', { status: i18n.t(`command.status.${blocked.status}`) });
    return { ok: false, message: i18n.t('command.notReady', { server: blocked.name, why }) };
  }
  const missing = missingTool[0];
  if (missing) {
    const names = missing.server.tools.map((t) => t.name).join(', ') || 'none';
    return { ok: false, message: i18n.t('command.noTool', { server: missing.server.name, tool: missing.tool, names }) };
  }
  if (servers.length === 0) {
    return { ok: false, message: i18n.t('command.noServers', { name }) };
  }
  if (ready.length === 0) {
    return { ok: false, message: i18n.t('command.noneReady', { name }) };
  }
  return { ok: false, message: i18n.t('command.unknown', { name, available: availableTools(ready) }) };
}

/** `/add, /subtract, …`, qualified where a name is offered by more than one server. */
export function availableTools(ready: readonly ServerView[], limit = 12): string {
  const counts = new Map<string, number>();
  for (const s of ready) for (const t of s.tools) counts.set(t.name, (counts.get(t.name) ?? 0) + 1);
  const names: string[] = [];
  for (const s of ready) {
    for (const t of s.tools) names.push((counts.get(t.name) ?? 0) > 1 ? qualify(s.name, t.name) : `/${t.name}`);
  }
  if (names.length === 0) return 'none (the ready servers offer no tools)';
  return names.length > limit ? `${names.slice(0, limit).join(', ')}, … (${names.length - limit} more)` : names.join(', ');
}

/** What a server's prompt list holds, as far as `/prompt-name` cares. */
export interface PromptLists {
  [server: string]: { value?: { prompts: ReadonlyArray<PromptInfo> } } | undefined;
}

export type PromptResolution =
  | { kind: 'found'; server: string; prompt: PromptInfo }
  | { kind: 'ambiguous'; message: string }
  /** Not among the lists held; `unloaded` names ready servers whose list is not loaded yet. */
  | { kind: 'unknown'; unloaded: string[] };

/**
 * Finds the prompt a `/name` means among the ready servers' loaded prompt lists: a bare prompt name, or
 * `server.prompt` / `server/prompt`. Tools come first (see the transcript slice's `submit`); this is asked when no tool matched.
 */
export function resolvePrompt(name: string, servers: readonly ServerView[], lists: PromptLists): PromptResolution {
  const ready = servers.filter((s) => s.status === 'ready' && !s.disabled);
  const found = new Map<string, { server: string; prompt: PromptInfo }>();
  const unloaded: string[] = [];
  for (const server of ready) {
    const prompts = lists[server.name]?.value?.prompts;
    if (prompts === undefined) {
      if (server.capabilities?.prompts !== false) unloaded.push(server.name);
      continue;
    }
    for (const prompt of prompts) {
      const names = [prompt.name, `${server.name}.${prompt.name}`, `${server.name}/${prompt.name}`];
      if (names.includes(name)) found.set(`${server.name}\u0000${prompt.name}`, { server: server.name, prompt });
    }
  }
  const matches = [...found.values()];
  const only = matches[0];
  if (matches.length === 1 && only) return { kind: 'found', ...only };
  if (matches.length > 1) {
    const options = matches.map((m) => `/${m.server}.${m.prompt.name}`).join(', ');
    return { kind: 'ambiguous', message: `"/${name}" is ambiguous: it matches the prompts ${options}. Use one of those names.` };
  }
  return { kind: 'unknown', unloaded };
}

/** Arguments typed as JSON after `/prompt-name`, as the strings prompts take. */
export function promptArgs(args: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(args).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
}

/** What `/` offers while a name is typed: tools and prompts whose name starts with (or contains) the text. */
export interface SlashSuggestion {
  /** `skill`: taking it attaches the skill's SKILL.md (./skill-suggestions.ts). */
  kind: 'tool' | 'prompt' | 'skill';
  /** What to type: bare when unique, else qualified. */
  command: string;
  server: string;
  name: string;
  description?: string;
  /** A skill's SKILL.md URI. */
  uri?: string;
}

export function slashSuggestions(typed: string, servers: readonly ServerView[], lists: PromptLists, limit = 8): SlashSuggestion[] {
  const query = typed.toLowerCase();
  const ready = servers.filter((s) => s.status === 'ready' && !s.disabled);
  const all: SlashSuggestion[] = [];
  const counts = new Map<string, number>();
  const bump = (key: string): void => {
    counts.set(key, (counts.get(key) ?? 0) + 1);
  };
  // App-only tools (MCP Apps) are their app's alone: no slash command offers them.
  const tools = (s: ServerView): ToolInfo[] => s.tools.filter((t) => !isAppOnly(t));
  for (const s of ready) for (const t of tools(s)) bump(t.name);
  for (const s of ready) for (const p of lists[s.name]?.value?.prompts ?? []) bump(p.name);
  for (const s of ready) {
    for (const t of tools(s)) {
      all.push({
        kind: 'tool',
        server: s.name,
        name: t.name,
        command: (counts.get(t.name) ?? 0) > 1 ? `${s.name}.${t.name}` : t.name,
        ...(t.description ? { description: t.description } : {}),
      });
    }
    for (const p of lists[s.name]?.value?.prompts ?? []) {
      all.push({
        kind: 'prompt',
        server: s.name,
        name: p.name,
        command: (counts.get(p.name) ?? 0) > 1 ? `${s.name}.${p.name}` : p.name,
        ...(p.description ? { description: p.description } : {}),
      });
    }
  }
  const starts = all.filter((x) => x.command.toLowerCase().startsWith(query) || x.name.toLowerCase().startsWith(query));
  const contains = all.filter((x) => !starts.includes(x) && x.command.toLowerCase().includes(query));
  return [...starts, ...contains].slice(0, limit);
}
