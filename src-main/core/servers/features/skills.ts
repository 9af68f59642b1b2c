import type { Client, ServerCapabilities } from '@modelcontextprotocol/client';
import { DIRECTORY_MIME_TYPE, SKILLS_EXTENSION_ID, SkillsClient, type Skill } from '@modelcontextprotocol/client/ext/skills';
import type {
  HiddenTextFinding,
  SkillDirectoryEntry,
  SkillFileInfo,
  SkillFileView,
  SkillInfo,
  SkillListView,
  SkillView,
} from '../../../../src-shared/host-api';
import { CoreError, messageOf } from '../../errors';
import { isSkillTrusted, reviewSkills, scanSkill, skillDigest, trustSkills, type ListedSkill } from '../../trust/skill-pins';
import { ListFeature } from './list-feature';

/*
 * Skills (`io.modelcontextprotocol/skills`, SEP-2640) through the SDK's SkillsClient: `skills/list` (every page) on
 * connect and again when the server's resources change (the extension announces a changed catalog with
 * `notifications/resources/list_changed`, which ResourcesFeature owns and forwards: see features/index.ts), each
 * SKILL.md read (and verified against its digest) for the hidden-text check, `skills/get`, files through
 * `resources/read` and `resources/directory/read` where the server declares it. Each skill is judged against its pin
 * (trust/skill-pins.ts): a changed, new or hiding skill needs review and is never offered to the model.
 */

/** At most this many SKILL.md files are read while listing (for the hidden-text check); the rest: frontmatter only. */
const maxScannedSkills = 200;

/** Whether the server's capabilities declare the Skills extension. */
export const declaresSkills = (capabilities: ServerCapabilities | undefined): boolean => capabilities?.extensions?.[SKILLS_EXTENSION_ID] !== undefined;

export class SkillsFeature extends ListFeature<SkillInfo> {
  readonly name = 'skills' as const;
  protected readonly changedMethod = 'notifications/resources/list_changed' as const;
  protected readonly listenKey = 'resourcesListChanged' as const;
  /** The SDK's entries by SKILL.md URI, as last listed (what reads are verified against). */
  private entries = new Map<string, Skill>();
  private directory = false;

  /** No handler of its own: `resources/list_changed` is ResourcesFeature's, which tells this feature (refresh()). */
  override attach(_client: Client): void {}

  protected offered(capabilities: ServerCapabilities | undefined): boolean {
    return declaresSkills(capabilities);
  }

  protected announcesChanges(capabilities: ServerCapabilities | undefined): boolean {
    return declaresSkills(capabilities) && capabilities?.resources?.listChanged === true;
  }

  protected async fetch(client: Client, timeoutMs: number): Promise<SkillInfo[]> {
    const skills = new SkillsClient(client, { skipInvalid: true });
    this.directory = skills.directoryRead;
    const listing = await skills.list({}, { timeout: timeoutMs });
    for (const invalid of listing.invalid)
      this.context.note(`[switchboard] skills/list entry #${invalid.index} ${invalid.uri ?? ''} was refused: ${invalid.reason}`);
    const entries = new Map(listing.skills.map((s) => [s.uri, s]));
    const listed = listing.skills.map(listedSkill);
    const hidden = new Map<string, HiddenTextFinding[]>();
    await Promise.all(
      listing.skills.map(async (entry, i) => {
        let text: string | undefined;
        if (i < maxScannedSkills) {
          try {
            // The body: the frontmatter is scanned field by field (its own findings, by key).
            text = (await skills.read(entry, undefined, { timeout: timeoutMs, cacheMode: 'refresh' })).body;
          } catch (error) {
            this.context.note(`[switchboard] reading ${entry.uri} failed: ${messageOf(error)}`);
          }
        }
        hidden.set(entry.uri, scanSkill({ frontmatter: entry.frontmatter }, text));
      }),
    );
    this.entries = entries;
    const pins = this.context.skillPins;
    return pins ? reviewSkills(pins, this.context.server, listed, hidden) : listed.map((s) => withHidden(s, hidden.get(s.uri)));
  }

  /** The server's resources changed: its skills may have (a changed catalog is announced that way). */
  refresh(): void {
    if (this.context.client() && this.known) this.scheduleRefresh();
  }

  override disconnected(): void {
    this.entries = new Map();
    super.disconnected();
  }

  async list(): Promise<SkillListView> {
    await this.settle();
    const error = this.error;
    return { server: this.context.server, skills: this.items, directoryRead: this.directory, ...(error !== undefined ? { error } : {}) };
  }

  /** For ServerView.counts; undefined until loaded or when the server has no skills. */
  count(): number | undefined {
    return this.known && this.declared() ? this.items.length : undefined;
  }

  /** The connected server declares the extension. */
  declared(): boolean {
    return declaresSkills(this.context.client()?.getServerCapabilities());
  }

  /** Whether `uri` is the SKILL.md of a listed skill. */
  isSkillUri(uri: string): boolean {
    return this.items.some((s) => s.uri === uri);
  }

  /** The listed skill's name for its SKILL.md URI. */
  nameOf(uri: string): string | undefined {
    return this.items.find((s) => s.uri === uri)?.name;
  }

  /** The listed skills the model may be offered (trusted ones). */
  offeredSkills(): SkillInfo[] {
    return this.context.client() ? this.items.filter(isSkillTrusted) : [];
  }

  /** A listed skill by frontmatter name or SKILL.md URI, or `invalid-argument` naming the server's skills. */
  async find(ref: string): Promise<SkillInfo> {
    this.client();
    await this.settle();
    const found = this.items.find((s) => s.name === ref) ?? this.items.find((s) => s.uri === ref);
    if (found) return found;
    const names = this.items.map((s) => s.name).join(', ');
    throw new CoreError('invalid-argument', `Server "${this.context.server}" has no skill "${ref}". Its skills: ${names || 'none'}.`, {
      data: { server: this.context.server, skill: ref },
    });
  }

  /** `skills/get` for the skill, then its SKILL.md read and verified. */
  async get(ref: string): Promise<SkillView> {
    const client = this.client();
    const skill = await this.find(ref);
    const skills = new SkillsClient(client);
    try {
      const result = await skills.get(skill.uri, { timeout: this.context.requestTimeoutMs() });
      const file = await skills.read(result.skill, undefined, { timeout: this.context.requestTimeoutMs(), cacheMode: 'refresh' });
      return {
        server: this.context.server,
        skill,
        result: {
          skill: {
            uri: result.skill.uri,
            frontmatter: result.skill.frontmatter,
            resources: filesOf(result.skill),
            ...(result.skill._meta ? { _meta: result.skill._meta } : {}),
          },
          ...(result.ttlMs !== undefined ? { ttlMs: result.ttlMs } : {}),
          ...(result.cacheScope !== undefined ? { cacheScope: result.cacheScope } : {}),
        },
        text: file.text ?? '',
        body: file.body ?? '',
      };
    } catch (error) {
      throw this.failed(`Getting the skill "${skill.name}"`, error, skill.uri);
    }
  }

  /**
   * A skill for the model (or a message it is attached to): only a trusted one, and only while what the server
   * serves now is what was pinned (the digest of `skills/get`'s entry equals the listed, trusted one); else
   * `needs-review`, and the list is fetched again so the change shows.
   */
  async loadTrusted(ref: string): Promise<SkillView> {
    const skill = await this.find(ref);
    const refuse = (why: string): CoreError =>
      new CoreError(
        'needs-review',
        `${this.context.server}/${skill.name} (skill) ${why}. Review it in Switchboard (Skills), or accept it with: switchboard trust ${this.context.server} ${skill.name}`,
        {
          data: { server: this.context.server, skill: skill.name, state: skill.review?.state ?? 'changed', reason: skill.review?.state ?? 'changed' },
        },
      );
    if (!isSkillTrusted(skill)) throw refuse(skill.review?.state === 'flagged' ? 'hides text and needs review first' : 'changed since it was trusted');
    const view = await this.get(skill.uri);
    const now = skillDigest({ uri: view.result.skill.uri, frontmatter: view.result.skill.frontmatter, files: view.result.skill.resources });
    if (now !== skill.digest) {
      this.scheduleRefresh();
      throw refuse('changed since it was trusted');
    }
    return view;
  }

  /** One file of a skill (its URI, or its path in the skill), verified against the entry. */
  async read(ref: string, uri: string): Promise<SkillFileView> {
    const client = this.client();
    const skill = await this.find(ref);
    const entry = this.entries.get(skill.uri);
    if (!entry)
      throw new CoreError('invalid-argument', `Server "${this.context.server}" no longer lists the skill "${ref}".`, { data: { server: this.context.server } });
    try {
      const file = await new SkillsClient(client).read(entry, uri, { timeout: this.context.requestTimeoutMs(), cacheMode: 'refresh' });
      return {
        uri: file.uri,
        ...(file.mimeType !== undefined ? { mimeType: file.mimeType } : {}),
        ...(file.text !== undefined ? { text: file.text } : {}),
        size: file.bytes.byteLength,
        verified: file.verified,
      };
    } catch (error) {
      throw this.failed(`Reading "${uri}" of the skill "${skill.name}"`, error, uri);
    }
  }

  /** The children of a skill directory (`resources/directory/read`), where the server declares it. */
  async readDirectory(uri: string): Promise<SkillDirectoryEntry[]> {
    const client = this.client();
    const skills = new SkillsClient(client);
    if (!skills.directoryRead)
      throw new CoreError(
        'not-supported',
        `Server "${this.context.server}" does not serve resources/directory/read for its skills; read the files its skills list instead.`,
        {
          data: { server: this.context.server },
        },
      );
    try {
      const { resources } = await skills.readDirectory(uri, { timeout: this.context.requestTimeoutMs() });
      return resources.map((r) => ({
        uri: r.uri,
        name: r.name,
        ...(r.mimeType !== undefined ? { mimeType: r.mimeType } : {}),
        ...(r.size !== undefined ? { size: r.size } : {}),
        directory: r.mimeType === DIRECTORY_MIME_TYPE,
      }));
    } catch (error) {
      throw this.failed(`Reading the skill directory "${uri}"`, error, uri);
    }
  }

  /** Accepts the current digests of the skills named (names or URIs; all that need review when none are). */
  trust(refs?: readonly string[]): string[] {
    this.client();
    const pins = this.context.skillPins;
    const unknown = (refs ?? []).filter((r) => !this.items.some((s) => s.name === r || s.uri === r));
    if (unknown.length > 0) {
      const names = this.items.map((s) => s.name).join(', ');
      throw new CoreError(
        'invalid-argument',
        `Server "${this.context.server}" has no skill ${unknown.map((n) => `"${n}"`).join(', ')}. Its skills: ${names || 'none'}.`,
        {
          data: { server: this.context.server, skills: unknown },
        },
      );
    }
    if (!pins) return [];
    const chosen = refs === undefined ? this.items.filter((s) => !isSkillTrusted(s)) : this.items.filter((s) => refs.includes(s.name) || refs.includes(s.uri));
    let trusted: string[];
    try {
      trusted = trustSkills(pins, this.context.server, chosen);
    } catch (error) {
      throw new CoreError(
        'internal',
        `Could not save the accepted skills to ${pins.file ?? 'memory'}: ${messageOf(error)}. Check that the data folder is writable.`,
        { cause: error, data: { server: this.context.server } },
      );
    }
    const hidden = new Map(this.items.map((s) => [s.uri, s.review?.hidden ?? []]));
    this.replaceItems(reviewSkills(pins, this.context.server, this.items.map(listedOf), hidden));
    return trusted;
  }

  private client(): Client {
    const client = this.context.client();
    if (!client)
      throw new CoreError('server-not-ready', `Server "${this.context.server}" is not connected; start it to see its skills.`, {
        data: { server: this.context.server },
      });
    if (!declaresSkills(client.getServerCapabilities()))
      throw new CoreError(
        'not-supported',
        `Server "${this.context.server}" does not offer skills (it does not declare the ${SKILLS_EXTENSION_ID} extension).`,
        {
          data: { server: this.context.server },
        },
      );
    return client;
  }

  private failed(what: string, error: unknown, uri: string): CoreError {
    return new CoreError('request-failed', `${what} from server "${this.context.server}" failed: ${messageOf(error)}`, {
      cause: error,
      data: { server: this.context.server, uri },
    });
  }
}

function filesOf(entry: Skill): SkillFileInfo[] | 'dynamic' {
  return entry.resources === 'dynamic' ? 'dynamic' : entry.resources.map((r) => ({ uri: r.uri, digest: r.digest, size: r.size }));
}

function listedSkill(entry: Skill): ListedSkill {
  const files = filesOf(entry);
  const frontmatter = { ...entry.frontmatter } as Record<string, unknown>;
  return {
    uri: entry.uri,
    name: entry.frontmatter.name,
    description: entry.frontmatter.description,
    frontmatter,
    files,
    digest: skillDigest({ uri: entry.uri, frontmatter, files }),
  };
}

function listedOf(skill: SkillInfo): ListedSkill {
  const { review: _review, ...rest } = skill;
  return rest;
}

function withHidden(skill: ListedSkill, hidden: HiddenTextFinding[] | undefined): SkillInfo {
  return hidden && hidden.length > 0 ? { ...skill, review: { state: 'trusted', hidden } } : skill;
}
