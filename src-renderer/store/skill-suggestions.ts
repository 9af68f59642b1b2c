import type { ServerView, SkillListView } from '../../src-shared/host-api';
import type { SlashSuggestion } from './command';
import type { Loadable } from './feature-types';

/**
 * The skills a `/name` being typed in the composer could be: trusted skills of ready servers (one that needs review
 * is never offered). Taking one attaches its SKILL.md to the next message.
 */
export function skillSuggestions(
  typed: string,
  servers: readonly ServerView[],
  lists: Record<string, Loadable<SkillListView> | undefined>,
  limit = 4,
): SlashSuggestion[] {
  const query = typed.toLowerCase();
  const all: SlashSuggestion[] = [];
  for (const s of servers) {
    if (s.status !== 'ready' || s.disabled || s.capabilities?.skills !== true) continue;
    for (const skill of lists[s.name]?.value?.skills ?? []) {
      if (skill.review !== undefined && skill.review.state !== 'trusted') continue;
      all.push({ kind: 'skill', server: s.name, name: skill.name, command: skill.name, description: skill.description, uri: skill.uri });
    }
  }
  const starts = all.filter((x) => x.name.toLowerCase().startsWith(query));
  const contains = all.filter((x) => !starts.includes(x) && x.name.toLowerCase().includes(query));
  return [...starts, ...contains].slice(0, limit);
}
