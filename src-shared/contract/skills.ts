/** Skills (`io.modelcontextprotocol/skills`, SEP-2640) a server offers, as the UI, the CLI and the chat see them. Zod-free. */
import type { HiddenTextFinding, ToolReviewState } from './trust';

/** One file of a skill as its entry lists it: the digest and size the host verifies a read against. */
export interface SkillFileInfo {
  uri: string;
  /** `sha256:<hex>` of the file's bytes. */
  digest: string;
  size: number;
}

/** What differs from the skill as it was trusted: its frontmatter's `name`, `description`, another field, or its files. */
export type SkillChangedField = 'name' | 'description' | 'frontmatter' | 'files';

/**
 * A skill's review state, as tools have one: `trusted` (pinned, or pinned on the server's first listing), `changed`
 * (its digest differs from the pinned one), `new` (appeared after the server's skills were pinned), `flagged` (not
 * pinned, and its frontmatter or SKILL.md hides characters). All but `trusted` need review: never offered to the model.
 */
export interface SkillReview {
  state: ToolReviewState;
  changed?: SkillChangedField[];
  /** `changed`: the skill as trusted (its name, description and files then). */
  pinned?: { name: string; description: string; files: SkillFileInfo[] | 'dynamic'; digest: string };
  /** Hidden text in the frontmatter or the SKILL.md (shown for trusted skills too). */
  hidden?: HiddenTextFinding[];
}

/** One skill of a server, keyed by server and `uri` (its SKILL.md), with the digest it is pinned by. */
export interface SkillInfo {
  /** The URI of its `SKILL.md`. */
  uri: string;
  name: string;
  description: string;
  /** The SKILL.md frontmatter, verbatim. */
  frontmatter: Record<string, unknown>;
  /** Every file of the skill, or `dynamic` (files the server makes up on request, not verified). */
  files: SkillFileInfo[] | 'dynamic';
  /** `sha256:<hex>` over the frontmatter and the files' digests: what is pinned. */
  digest: string;
  review?: SkillReview;
}

export interface SkillListView {
  server: string;
  skills: SkillInfo[];
  /** The server declares `resources/directory/read` for its skills. */
  directoryRead: boolean;
  error?: string;
}

/** The `skills/get` result as the server sent it (the entry, and on 2026-07-28 its caching fields). */
export interface SkillGetResult {
  skill: { uri: string; frontmatter: Record<string, unknown>; resources: SkillFileInfo[] | 'dynamic'; _meta?: Record<string, unknown> };
  ttlMs?: number;
  cacheScope?: 'public' | 'private';
}

/** A skill with its SKILL.md read and verified. */
export interface SkillView {
  server: string;
  skill: SkillInfo;
  /** What `skills/get` answered. */
  result: SkillGetResult;
  /** The SKILL.md as the server sent it (frontmatter included). */
  text: string;
  /** The markdown after the frontmatter. */
  body: string;
}

/** One file of a skill, read through `resources/read` and checked against the entry's size and digest. */
export interface SkillFileView {
  uri: string;
  mimeType?: string;
  /** The text, when the file is text. */
  text?: string;
  size: number;
  /** Size and digest were checked (false only for `dynamic` skills). */
  verified: boolean;
}

/** A child of a skill directory (`resources/directory/read`). */
export interface SkillDirectoryEntry {
  uri: string;
  name: string;
  mimeType?: string;
  size?: number;
  /** A directory (`inode/directory`), to read in turn. */
  directory: boolean;
}

export interface SkillsResults {
  'skills:list': SkillListView;
  /** A skill by name or SKILL.md URI: `skills/get`, then its SKILL.md read. */
  'skills:get': SkillView;
  'skills:read': SkillFileView;
  'skills:directory': SkillDirectoryEntry[];
  /** The skills (by URI) whose current digests are now pinned. */
  'skills:trust': { server: string; trusted: string[] };
}

/** Each skills channel once, at runtime (the preload and the IPC gateway register them by name). */
export const skillsChannelNames = {
  'skills:list': true,
  'skills:get': true,
  'skills:read': true,
  'skills:directory': true,
  'skills:trust': true,
} as const satisfies Record<keyof SkillsResults, true>;
