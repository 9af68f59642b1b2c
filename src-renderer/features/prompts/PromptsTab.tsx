import type { ServerView } from '../../../src-shared/host-api';
import { useApp } from '../../store/useApp';
import { resourceKey } from '../../store/feature-types';
import { useT } from '../../i18n';
import { PromptsView } from './PromptsView';

/** The prompts tab bound to the store. */
export function PromptsTab({ server }: { server: ServerView }) {
  const name = server.name;
  const t = useT();
  const list = useApp((s) => s.promptLists[name]);
  const selected = useApp((s) => (s.serverPage?.server === name ? s.serverPage.prompt : undefined));
  const result = useApp((s) => (selected === undefined ? undefined : s.promptResults[resourceKey(name, selected)]));
  const select = useApp((s) => s.selectPrompt);
  const getPrompt = useApp((s) => s.getPrompt);
  const insertPrompt = useApp((s) => s.insertPrompt);
  const load = useApp((s) => s.loadPrompts);
  const complete = useApp((s) => s.complete);
  if (server.capabilities?.prompts === false) return <p className="muted tab-note">{t('prompts.notOffered', { server: name })}</p>;
  return (
    <PromptsView
      server={name}
      list={list}
      selected={selected}
      result={result}
      canComplete={server.capabilities?.completions !== false}
      onSelect={select}
      onGet={(prompt, args) => void getPrompt(name, prompt, args)}
      onInsert={(prompt, args) => void insertPrompt(name, prompt, args)}
      onRefresh={() => void load(name)}
      complete={(prompt, argument, value, context) => complete(name, { type: 'prompt', name: prompt }, argument, value, context)}
    />
  );
}
