import { dynamicTool, jsonSchema, type ToolSet } from 'ai';
import { z } from 'zod';
import type { ApprovalMode, AuditDecision, ToolPart } from '../../../../src-shared/contract/chat';
import { messageOf } from '../../errors';
import { toModelOutput, type OutputOptions, type ToolOutcome } from '../model-messages';
import type { TurnOptions } from '../run-turn';

/*
 * Skills in the chat (io.modelcontextprotocol/skills): the names and descriptions of the skills the model may use go
 * into the system prompt, and `load_skill` ({server, name}) gives it a skill's SKILL.md when it needs it. Only
 * trusted skills of ready servers are offered (the host's SkillSource filters them); a load checks the skill again
 * (its digest against the pinned one). A skill whose SKILL.md points at another skill (its URI, or a link to its
 * name) does not pull that one in unasked: the person approves each such load, as a tool call is approved.
 */

export const loadSkillToolName = 'load_skill';
/** The server name a load's tool card carries (no MCP server runs it). */
export const skillsToolServer = 'switchboard';

/** A skill the model may use, as its catalogue lists it. */
export interface OfferedSkill {
  server: string;
  name: string;
  description: string;
  uri: string;
}

/** Where the chat finds skills (the host: each ready server's SkillsFeature). */
export interface ChatSkillSource {
  /** The trusted skills of the ready, enabled servers (a listing still loading is waited for). */
  offered(): Promise<OfferedSkill[]>;
  /** A skill's SKILL.md, checked against its pin; rejects for a skill that is not offered or needs review. */
  load(server: string, name: string): Promise<{ uri: string; text: string }>;
}

/** What a turn needs to offer skills: the catalogue and the loader. */
export interface SkillsTurn {
  skills: readonly OfferedSkill[];
  source: ChatSkillSource;
}

/** The system prompt's part about skills: what there is and how to load it. */
export function skillsSystemNote(skills: readonly OfferedSkill[]): string {
  const lines = skills.map((s) => `- ${s.name} (server "${s.server}"): ${oneLine(s.description)}`);
  return (
    `Skills are instructions for particular tasks, from the user's MCP servers. When a task matches a skill's description, ` +
    `call ${loadSkillToolName} with its server and name to read it before you start, then follow it. Available skills:\n${lines.join('\n')}`
  );
}

const oneLine = (text: string): string => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
};

/** The other offered skills a SKILL.md points at: their URI (or their folder's), or a Markdown link to their name. */
export function referencedSkills(text: string, self: OfferedSkill, skills: readonly OfferedSkill[]): OfferedSkill[] {
  const links = new Set([...text.matchAll(/\]\(\s*<?([^)\s>]+)>?[^)]*\)/g)].map((m) => m[1] ?? ''));
  return skills.filter((s) => {
    if (s.server === self.server && s.uri === self.uri) return false;
    const root = s.uri.replace(/\/SKILL\.md$/, '');
    return text.includes(s.uri) || new RegExp(`${escape(root)}(?![\\w-])`).test(text) || links.has(s.name);
  });
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const inputSchema = z.object({ server: z.string().min(1), name: z.string().min(1) });

/** What a load needs of the turn: its approval path (a referenced skill is approved as a tool call is). */
interface LoadSkillContext extends Pick<TurnOptions, 'policy' | 'ask' | 'allowAlways' | 'audit' | 'source' | 'conversationId'> {
  turn: SkillsTurn;
  signal: AbortSignal;
  upsert(part: ToolPart): void;
  output: OutputOptions;
}

/** The key "Always allow" records for loading a skill another skill references. */
export const referenceKey = `${skillsToolServer}/${loadSkillToolName}`;

function autoDecision(mode: ApprovalMode, alwaysAllow: ReadonlySet<string>): AuditDecision | undefined {
  if (mode === 'none') return 'auto-deny';
  if (alwaysAllow.has(referenceKey)) return 'auto-always';
  if (mode === 'all') return 'auto-all';
  return undefined;
}

export function loadSkillTool(context: LoadSkillContext): ToolSet[string] {
  const { turn } = context;
  const find = (server: string, name: string): OfferedSkill | undefined => turn.skills.find((s) => s.server === server && (s.name === name || s.uri === name));

  /** Asks the person whether to load `skill`, which `by` references; answers whether they allowed it. */
  const askReference = async (callId: string, skill: OfferedSkill, by: OfferedSkill): Promise<boolean> => {
    const args = { server: skill.server, name: skill.name, referencedBy: by.name };
    const part: ToolPart = {
      type: 'tool',
      callId,
      server: skillsToolServer,
      tool: loadSkillToolName,
      modelName: loadSkillToolName,
      args,
      status: 'awaiting-approval',
      readOnly: true,
    };
    const policy = context.policy();
    let decision = autoDecision(policy.mode, policy.alwaysAllow);
    if (decision === undefined) {
      const asked = context.ask(
        {
          callId,
          server: skillsToolServer,
          tool: loadSkillToolName,
          args,
          readOnly: true,
          title: `Load the skill "${skill.name}" that "${by.name}" refers to`,
        },
        context.signal,
      );
      context.upsert(part);
      const answer = await asked;
      if (answer.decision === 'cancelled') {
        context.upsert({ ...part, status: 'cancelled' });
        return false;
      }
      if (answer.decision === 'always') context.allowAlways(referenceKey);
      decision = answer.decision === 'once' ? 'allow-once' : answer.decision === 'always' ? 'always-allow' : 'deny';
    }
    context.audit.append({
      kind: 'decision',
      source: context.source,
      ...(context.conversationId ? { conversationId: context.conversationId } : {}),
      callId,
      server: skillsToolServer,
      tool: loadSkillToolName,
      args: JSON.stringify(args),
      decision,
    });
    const allowed = decision !== 'deny' && decision !== 'auto-deny';
    context.upsert({ ...part, status: allowed ? 'done' : 'denied', decision });
    return allowed;
  };

  return dynamicTool({
    description: `Read a skill's instructions (its SKILL.md) before a task its description matches. Skills: ${turn.skills.map((s) => `${s.server}/${s.name}`).join(', ')}.`,
    inputSchema: jsonSchema({
      type: 'object',
      properties: {
        server: { type: 'string', description: 'The server the skill comes from.' },
        name: { type: 'string', description: 'The skill name.' },
      },
      required: ['server', 'name'],
    }),
    execute: async (input, { toolCallId }): Promise<ToolOutcome> => {
      const args = typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
      const base: ToolPart = {
        type: 'tool',
        callId: toolCallId,
        server: skillsToolServer,
        tool: loadSkillToolName,
        modelName: loadSkillToolName,
        args,
        status: 'running',
        readOnly: true,
      };
      const fail = (message: string): ToolOutcome => {
        context.upsert({ ...base, status: 'error', error: message });
        return { kind: 'failed', message };
      };
      if (context.signal.aborted) {
        context.upsert({ ...base, status: 'cancelled' });
        return { kind: 'cancelled' };
      }
      const parsed = inputSchema.safeParse(input);
      if (!parsed.success) return fail(`${loadSkillToolName} needs {"server": "…", "name": "…"}.`);
      const skill = find(parsed.data.server, parsed.data.name);
      if (!skill) {
        const names = turn.skills.map((s) => `${s.server}/${s.name}`).join(', ');
        return fail(`There is no skill "${parsed.data.name}" on server "${parsed.data.server}" to load. Skills: ${names || 'none'}.`);
      }
      context.upsert(base);
      const started = performance.now();
      try {
        const loaded = await turn.source.load(skill.server, skill.name);
        const parts = [loaded.text];
        const references = referencedSkills(loaded.text, skill, turn.skills);
        for (const [i, other] of references.entries()) {
          if (!(await askReference(`${toolCallId}-ref-${i + 1}`, other, skill))) {
            parts.push(`(The skill "${skill.name}" refers to the skill "${other.name}"; the user did not allow loading it. Go on without it.)`);
            continue;
          }
          try {
            const more = await turn.source.load(other.server, other.name);
            parts.push(`--- The skill "${other.name}" (server "${other.server}"), which "${skill.name}" refers to ---\n${more.text}`);
          } catch (error) {
            parts.push(`(The skill "${other.name}", which "${skill.name}" refers to, could not be loaded: ${messageOf(error)})`);
          }
        }
        const result = { content: [{ type: 'text' as const, text: parts.join('\n\n') }] };
        context.upsert({ ...base, status: 'done', result, durationMs: Math.round(performance.now() - started) });
        return { kind: 'result', result };
      } catch (error) {
        return fail(messageOf(error));
      }
    },
    toModelOutput: ({ output }) => toModelOutput(output as ToolOutcome, context.output),
  });
}
