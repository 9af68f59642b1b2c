import { createHash } from 'node:crypto';
import { diffLines } from 'diff';
import type { HiddenTextFinding, PinnedDefinition, ToolDefinitionField, ToolInfo, ToolReview } from '../../../src-shared/host-api';
import { toolUiMeta } from '../../../src-shared/tool-ui';
import { findingLines, revealHidden, scanTool } from './hidden-text';
import { ServerPinFile } from './server-pin-file';

/*
 * Pinned tool definitions (against "rug pulls" such as MCPoison): on a server's first successful listing,
 * each tool's name, title, description, inputSchema, outputSchema, annotations, `_meta.ui` and the digest of the MCP
 * App HTML that names (both only when present, so a tool without them hashes as it always did), and the server's
 * instructions, are pinned — a SHA-256 of their canonical JSON, kept with the definition itself so that a change can be shown as a
 * diff. Later listings are compared with the pins: a tool whose definition (or whose server's instructions) differs
 * is `changed`, one that was not there is `new`, one not yet pinned whose text hides characters is `flagged`; none of
 * those is offered to the model or may be called until a person accepts it (`tools:trust`, `switchboard trust`).
 * A removed tool needs nothing (its pin stays: the same definition coming back is still trusted).
 *
 * The file (`tool-pins.json` in the data folder, 0600, written atomically) is read before each use and, under its
 * lock, before each write, so the app and a CLI sharing the folder see (and keep) each other's decisions.
 */

export const pinsFileName = 'tool-pins.json';

/** The parts of a tool that are pinned. */
export interface ToolDefinition {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
  /** The tool's `_meta.ui` (MCP Apps: its UI resource and visibility). */
  ui?: Record<string, unknown>;
  /** `sha256:<hex>` of its UI resource's HTML, when it has a valid one. */
  appHtml?: string;
}

export interface ToolPin {
  hash: string;
  definition: ToolDefinition;
  pinnedAt: number;
}

export interface ServerPins {
  /** SHA-256 of the instructions ('' when the server gave none) and their text. */
  instructions: { hash: string; text: string };
  tools: Record<string, ToolPin>;
}

export function definitionOf(tool: ToolInfo): ToolDefinition {
  const ui = toolUiMeta(tool);
  const app = tool.app?.digest;
  return {
    name: tool.name,
    ...(tool.title !== undefined ? { title: tool.title } : {}),
    ...(tool.description !== undefined ? { description: tool.description } : {}),
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema !== undefined ? { outputSchema: tool.outputSchema } : {}),
    ...(tool.annotations !== undefined ? { annotations: tool.annotations } : {}),
    ...(ui !== undefined ? { ui } : {}),
    ...(app !== undefined ? { appHtml: app } : {}),
  };
}

/** JSON with object keys sorted at every level: the same definition always hashes the same. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v ?? null)).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
export const hashDefinition = (definition: ToolDefinition): string => sha256(canonicalJson(definition));
export const hashInstructions = (instructions: string | undefined): string => sha256(instructions ?? '');

const toolFields = ['title', 'description', 'inputSchema', 'outputSchema', 'annotations', 'ui', 'appHtml'] as const;

/** The fields in which two definitions differ. */
export function changedFields(before: ToolDefinition, after: ToolDefinition): Array<(typeof toolFields)[number]> {
  return toolFields.filter((field) => canonicalJson(before[field] ?? null) !== canonicalJson(after[field] ?? null));
}

/** The pins of every server, in one 0600 file. Without a file (tests), pins live in memory. */
export class PinStore extends ServerPinFile<ServerPins> {
  constructor(file: string | undefined, warn: (line: string) => void = () => undefined) {
    super(file, 'pinned tool definitions', warn);
  }

  private warned = false;

  /** One warning per store (a folder that cannot be written would say so at every listing). */
  warnOnce(line: string): void {
    if (this.warned) return;
    this.warned = true;
    this.warn(line);
  }

  server(name: string): ServerPins | undefined {
    const pins = this.stored(name) as ServerPins | undefined;
    return pins !== undefined && typeof pins.tools === 'object' && pins.tools !== null && typeof pins.instructions?.hash === 'string' ? pins : undefined;
  }
}

function pinOf(tool: ToolInfo, now: number): ToolPin {
  const definition = definitionOf(tool);
  return { hash: hashDefinition(definition), definition, pinnedAt: now };
}

/**
 * The listed tools with their review state. A server's first listing pins every tool whose text is clean, and the
 * instructions (trust on first use); hidden-text tools stay `flagged` until accepted.
 */
export function reviewTools(
  store: PinStore,
  server: string,
  tools: readonly ToolInfo[],
  instructions: string | undefined,
  now: number = Date.now(),
): ToolInfo[] {
  let pins = store.server(server);
  const hidden = new Map(tools.map((t) => [t, scanTool(t)]));
  if (pins === undefined) {
    const first = (existing: ServerPins | undefined): ServerPins => {
      const base: ServerPins = existing ?? { instructions: { hash: hashInstructions(instructions), text: instructions ?? '' }, tools: {} };
      const added: Record<string, ToolPin> = {};
      for (const tool of tools) if ((hidden.get(tool) ?? []).length === 0 && base.tools[tool.name] === undefined) added[tool.name] = pinOf(tool, now);
      return { ...base, tools: { ...base.tools, ...added } };
    };
    try {
      pins = store.update(server, first);
    } catch (error) {
      // A data folder that cannot be written must not stop the server: this listing is trusted as a first one
      // (as it would be on the next start anyway), and the reason is logged.
      store.warnOnce(
        `[switchboard] cannot save pinned tool definitions to ${store.file ?? 'memory'} (${error instanceof Error ? error.message : String(error)}); every start counts as a first listing until it can`,
      );
      pins = first(undefined);
    }
  }
  const instructionsChanged = pins.instructions.hash !== hashInstructions(instructions);
  return tools.map((tool) => ({ ...tool, review: reviewOf(tool, pins, instructionsChanged, hidden.get(tool) ?? []) }));
}

function reviewOf(tool: ToolInfo, pins: ServerPins, instructionsChanged: boolean, hidden: HiddenTextFinding[]): ToolReview {
  const pin = pins.tools[tool.name];
  const extra = hidden.length > 0 ? { hidden } : {};
  if (pin !== undefined) {
    const definition = definitionOf(tool);
    const fields: ToolDefinitionField[] = pin.hash === hashDefinition(definition) ? [] : changedFields(pin.definition, definition);
    // A hash mismatch whose fields compare equal (key order, say) cannot happen with canonical JSON; be safe anyway.
    if (pin.hash !== hashDefinition(definition) && fields.length === 0) fields.push('inputSchema');
    if (instructionsChanged) fields.push('instructions');
    if (fields.length === 0) return { state: 'trusted', ...extra };
    const pinned: PinnedDefinition = {};
    for (const field of fields) {
      if (field === 'instructions') pinned.instructions = pins.instructions.text;
      else if (pin.definition[field] !== undefined) Object.assign(pinned, { [field]: pin.definition[field] });
    }
    return { state: 'changed', changed: fields, pinned, ...extra };
  }
  if (hidden.length > 0) return { state: 'flagged', ...extra };
  return { state: 'new' };
}

/** The server's instructions as last heard: a later `server/discover` (2026-07-28) wins over what connect adopted. */
export function currentInstructions(
  client: { getInstructions(): string | undefined; getDiscoverResult(): { instructions?: string } | undefined } | undefined,
): string | undefined {
  if (!client) return undefined;
  return client.getDiscoverResult()?.instructions ?? client.getInstructions();
}

/** Whether a tool may be offered to the model and called. */
export const isTrusted = (tool: ToolInfo): boolean => tool.review === undefined || tool.review.state === 'trusted';

/**
 * Accepts the current definitions of `names` (every listed tool that needs review when omitted) and the server's
 * current instructions. Answers the names now trusted; unknown names are an error for the caller to report.
 */
export function trustTools(
  store: PinStore,
  server: string,
  tools: readonly ToolInfo[],
  instructions: string | undefined,
  names?: readonly string[],
  now: number = Date.now(),
): string[] {
  const chosen = names === undefined ? tools.filter((t) => !isTrusted(t)) : tools.filter((t) => names.includes(t.name));
  store.update(server, (existing) => {
    const next: ServerPins = { instructions: { hash: hashInstructions(instructions), text: instructions ?? '' }, tools: { ...existing?.tools } };
    for (const tool of chosen) next.tools[tool.name] = pinOf(tool, now);
    return next;
  });
  return chosen.map((t) => t.name);
}

/** A field as diff text, its hidden characters spelled out (never written raw to a terminal); `none` for no value. */
const fieldText = (value: unknown, none: string): string =>
  value === undefined ? none : revealHidden(typeof value === 'string' ? value : JSON.stringify(value, null, 2));

/** How shortDiff words what is its own (the CLI passes its language's); field names are codes, shown as they are. */
export interface DiffWords {
  /** A field that has no value (on one side). */
  none: string;
  /** The lines left out past `maxLines`. */
  more(count: number): string;
}

export const englishDiffWords: DiffWords = { none: '(none)', more: (count) => `… ${count} more line(s)` };

/** The current value of a field, for a diff beside the pinned one. */
export function currentField(tool: ToolInfo, field: ToolDefinitionField, instructions: string | undefined): unknown {
  if (field === 'instructions') return instructions ?? '';
  if (field === 'ui') return toolUiMeta(tool);
  if (field === 'appHtml') return tool.app?.digest;
  return tool[field];
}

/**
 * A short diff of what changed, for a refusal message and the CLI: per changed field, its removed lines (`-`) and
 * added lines (`+`), at most `maxLines` lines in all.
 */
export function shortDiff(tool: ToolInfo, instructions: string | undefined, maxLines = 12, words: DiffWords = englishDiffWords): string[] {
  const review = tool.review;
  if (review?.state !== 'changed' || review.changed === undefined) return [];
  const lines: string[] = [];
  for (const field of review.changed) {
    const before = fieldText(review.pinned?.[field], words.none);
    const after = fieldText(currentField(tool, field, instructions), words.none);
    lines.push(`${field}:`);
    // Both end in a newline, so that a last line that is the same is not shown as changed.
    for (const part of diffLines(`${before}\n`, `${after}\n`)) {
      if (!part.added && !part.removed) continue;
      for (const line of part.value.replace(/\n$/, '').split('\n'))
        lines.push(`  ${part.added ? '+' : '-'} ${line.length > 160 ? `${line.slice(0, 160)}…` : line}`);
    }
  }
  if (lines.length <= maxLines) return lines;
  return [...lines.slice(0, maxLines), `  ${words.more(lines.length - maxLines)}`];
}

const quote = (s: string): string => (/^[\w.-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/**
 * Why a tool needing review may not run, as a person can act on it: what changed (a short diff), that it is new, or
 * the hidden text decoded; and how to accept it.
 */
export function reviewMessage(server: string, tool: ToolInfo, instructions: string | undefined): string {
  const review = tool.review;
  const accept = `Review it in Switchboard (Tools), or accept it with: switchboard trust ${quote(server)} ${quote(tool.name)}`;
  const hidden = review?.hidden?.length
    ? `\nHidden text:\n${findingLines(review.hidden)
        .map((l) => `  ${l}`)
        .join('\n')}`
    : '';
  if (review?.state === 'changed') {
    const diff = shortDiff(tool, instructions);
    return `${server}/${tool.name} changed since it was trusted (${(review.changed ?? []).join(', ')}). ${accept}\n${diff.join('\n')}${hidden}`;
  }
  if (review?.state === 'new')
    return `${server}/${tool.name} changed since it was trusted: it is a new tool, not there when the server's tools were pinned. ${accept}`;
  return `${server}/${tool.name} hides text in its definition and needs review before it can run. ${accept}${hidden}`;
}
