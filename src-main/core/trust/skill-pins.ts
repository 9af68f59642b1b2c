import { createHash } from 'node:crypto';
import type { HiddenTextFinding, SkillChangedField, SkillFileInfo, SkillInfo, SkillReview } from '../../../src-shared/host-api';
import { scanText } from './hidden-text';
import { canonicalJson } from './pins';
import { ServerPinFile } from './server-pin-file';

/*
 * Pinned skills, as tools are pinned (trust/pins.ts): a server's first listing pins each skill whose frontmatter and
 * SKILL.md are clean — keyed by the SKILL.md URI, with a digest over the frontmatter and every file's digest (the
 * server publishes per-file SHA-256 digests; the SDK checks each read against them). A later listing whose digest
 * differs is `changed`, a skill not there when the server was pinned is `new`, an unpinned one hiding characters is
 * `flagged`. None of those is offered to the model until a person accepts it (`skills:trust`, `switchboard trust`).
 *
 * The file (`skill-pins.json` beside `tool-pins.json`, 0600, written atomically) is read before each use and, under
 * its lock, before each write, so the app and a CLI sharing the data folder keep each other's decisions.
 */

export const skillPinsFileName = 'skill-pins.json';

export interface SkillPin {
  digest: string;
  name: string;
  description: string;
  files: SkillFileInfo[] | 'dynamic';
  frontmatter: Record<string, unknown>;
  pinnedAt: number;
}

/** The skill pins of every server, in one 0600 file; without a file (tests), in memory. */
export class SkillPinStore extends ServerPinFile<Record<string, SkillPin>> {
  constructor(file: string | undefined, warn: (line: string) => void = () => undefined) {
    super(file, 'pinned skills', warn);
  }

  server(name: string): Record<string, SkillPin> | undefined {
    const pins = this.stored(name);
    return typeof pins === 'object' && pins !== null ? (pins as Record<string, SkillPin>) : undefined;
  }
}

/** A skill as listed, before review. */
export type ListedSkill = Omit<SkillInfo, 'review'>;

/** `sha256:<hex>` over what a skill is: its URI, frontmatter and every file's URI, digest and size. */
export function skillDigest(skill: Pick<SkillInfo, 'uri' | 'frontmatter' | 'files'>): string {
  const files =
    skill.files === 'dynamic'
      ? 'dynamic'
      : [...skill.files].map((f) => ({ uri: f.uri, digest: f.digest, size: f.size })).sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
  const text = canonicalJson({ uri: skill.uri, frontmatter: skill.frontmatter, files });
  return `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;
}

const maxDepth = 32;

/** Hidden characters in a skill's frontmatter (every key and string) and in its SKILL.md (when read). */
export function scanSkill(skill: Pick<SkillInfo, 'frontmatter'>, skillMd?: string): HiddenTextFinding[] {
  const findings: HiddenTextFinding[] = [];
  const check = (where: string, text: string): void => {
    const found = scanText(text);
    if (found) findings.push({ where, ...found });
  };
  const walk = (value: unknown, path: string, depth: number): void => {
    if (depth > maxDepth) return;
    if (typeof value === 'string') check(path, value);
    else if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${path}[${i}]`, depth + 1));
    else if (typeof value === 'object' && value !== null)
      for (const [key, child] of Object.entries(value)) {
        check(`${path}.${key} (name)`, key);
        walk(child, `${path}.${key}`, depth + 1);
      }
  };
  for (const [key, value] of Object.entries(skill.frontmatter)) walk(value, key, 0);
  if (skillMd !== undefined) check('SKILL.md', skillMd);
  return findings;
}

function pinOf(skill: ListedSkill, now: number): SkillPin {
  return { digest: skill.digest, name: skill.name, description: skill.description, files: skill.files, frontmatter: skill.frontmatter, pinnedAt: now };
}

function changedFields(pin: SkillPin, skill: ListedSkill): SkillChangedField[] {
  const fields: SkillChangedField[] = [];
  if (pin.name !== skill.name) fields.push('name');
  if (pin.description !== skill.description) fields.push('description');
  const rest = (f: Record<string, unknown>): string => canonicalJson({ ...f, name: undefined, description: undefined });
  if (rest(pin.frontmatter) !== rest(skill.frontmatter)) fields.push('frontmatter');
  if (canonicalJson(pin.files) !== canonicalJson(skill.files)) fields.push('files');
  // A digest that differs with every field equal (a file renamed to itself, say) is still a change of its files.
  if (fields.length === 0) fields.push('files');
  return fields;
}

/**
 * The listed skills with their review state. A server's first listing pins every skill whose text is clean (trust
 * on first use); hidden-text skills stay `flagged` until accepted. `hidden`: findings per SKILL.md URI.
 */
export function reviewSkills(
  store: SkillPinStore,
  server: string,
  skills: readonly ListedSkill[],
  hidden: ReadonlyMap<string, HiddenTextFinding[]>,
  now: number = Date.now(),
): SkillInfo[] {
  let pins = store.server(server);
  if (pins === undefined) {
    const first = (existing: Record<string, SkillPin> | undefined): Record<string, SkillPin> => {
      const next = { ...existing };
      for (const skill of skills) if ((hidden.get(skill.uri) ?? []).length === 0 && next[skill.uri] === undefined) next[skill.uri] = pinOf(skill, now);
      return next;
    };
    try {
      pins = store.update(server, first);
    } catch {
      // A data folder that cannot be written must not stop the server: this listing counts as a first one.
      pins = first(undefined);
    }
  }
  const current = pins;
  return skills.map((skill) => ({ ...skill, review: reviewOf(skill, current[skill.uri], hidden.get(skill.uri) ?? []) }));
}

function reviewOf(skill: ListedSkill, pin: SkillPin | undefined, hidden: HiddenTextFinding[]): SkillReview {
  const extra = hidden.length > 0 ? { hidden } : {};
  if (pin !== undefined) {
    if (pin.digest === skill.digest) return { state: 'trusted', ...extra };
    return {
      state: 'changed',
      changed: changedFields(pin, skill),
      pinned: { name: pin.name, description: pin.description, files: pin.files, digest: pin.digest },
      ...extra,
    };
  }
  if (hidden.length > 0) return { state: 'flagged', ...extra };
  return { state: 'new' };
}

/** Whether a skill may be offered to the model. */
export const isSkillTrusted = (skill: SkillInfo): boolean => skill.review === undefined || skill.review.state === 'trusted';

/** Pins the current digests of `chosen`; answers their URIs. */
export function trustSkills(store: SkillPinStore, server: string, chosen: readonly ListedSkill[], now: number = Date.now()): string[] {
  store.update(server, (existing) => {
    const next = { ...existing };
    for (const skill of chosen) next[skill.uri] = pinOf(skill, now);
    return next;
  });
  return chosen.map((s) => s.uri);
}
