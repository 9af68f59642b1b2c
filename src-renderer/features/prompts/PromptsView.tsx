import type { PromptInfo } from '../../../src-shared/contract/prompts';
import type { PromptListState, PromptResultState } from '../../store/feature-types';
import { DetailHead, ErrorNote, ReloadButton } from '../../ui/FeatureParts';
import { VirtualList } from '../../ui/VirtualList';
import { PromptForm } from './PromptForm';
import { PromptMessages } from './PromptMessages';
import { Trans } from 'react-i18next';
import { useT } from '../../i18n';

const promptFields = (p: PromptInfo): Array<string | undefined> => [p.name, p.title, p.description, ...p.arguments.map((a) => a.name)];

export interface PromptsViewProps {
  server: string;
  list: PromptListState | undefined;
  selected: string | undefined;
  result: PromptResultState | undefined;
  canComplete: boolean;
  onSelect(name: string): void;
  onGet(name: string, args: Record<string, string>): void;
  onInsert(name: string, args: Record<string, string>): void;
  onRefresh(): void;
  complete(prompt: string, argument: string, value: string, context: Record<string, string>): Promise<string[]>;
}

/** A server's prompts (searchable, virtualised); the open one with its arguments, a preview, and "insert". */
export function PromptsView(props: PromptsViewProps) {
  const t = useT();
  const { list, selected } = props;
  const prompts = list?.value?.prompts ?? [];
  const error = list?.state === 'error' ? list.message : list?.value?.error;
  const prompt = prompts.find((p) => p.name === selected);
  return (
    <div className="feature-split">
      <div className="feature-list-pane">
        {error && <ErrorNote testId="prompts-error">{t('prompts.listFailed', { error })}</ErrorNote>}
        <VirtualList
          items={prompts}
          getKey={(p) => p.name}
          label={t('prompts.label', { server: props.server })}
          searchLabel={t('prompts.search')}
          searchFields={promptFields}
          noun={[t('prompts.prompt'), t('prompts.promptsNoun')]}
          selectedKey={selected}
          onSelect={(p) => props.onSelect(p.name)}
          testId="prompt-list"
          itemTestId="prompt-item"
          estimateSize={48}
          empty={list === undefined || list.state === 'loading' ? t('common.loading') : t('prompts.none')}
          toolbar={<ReloadButton label={t('prompts.reloadList')} title={t('resources.reloadListTitle')} onClick={props.onRefresh} />}
          renderItem={(p) => (
            <div className="row-main">
              <span className="row-title">
                {p.title ?? p.name}
                {p.arguments.length > 0 && <span className="tag">{t('prompts.argCount', { count: p.arguments.length })}</span>}
              </span>
              <span className="row-sub">{p.description ?? p.name}</span>
            </div>
          )}
        />
      </div>
      <div className="feature-detail-pane">
        {prompt ? (
          <section className="prompt-detail" aria-label={t('prompts.promptLabel', { prompt: prompt.name })} data-testid="prompt-detail">
            <DetailHead title={prompt.title ?? prompt.name} id={`/${prompt.name}`} />
            {prompt.description && <p className="muted detail-meta">{prompt.description}</p>}
            <PromptForm
              key={prompt.name}
              prompt={prompt}
              initial={props.result?.args}
              busy={props.result?.state === 'loading'}
              error={props.result?.state === 'error' ? props.result.message : undefined}
              complete={props.canComplete ? (argument, value, context) => props.complete(prompt.name, argument, value, context) : undefined}
              actions={[
                { label: t('prompts.preview'), testId: 'prompt-get', run: (args) => props.onGet(prompt.name, args) },
                { label: t('prompts.insert'), testId: 'prompt-insert', primary: true, run: (args) => props.onInsert(prompt.name, args) },
              ]}
            />
            {props.result?.state === 'ok' && <PromptMessages view={props.result.value} server={props.server} />}
          </section>
        ) : (
          <div className="detail-placeholder muted">
            <p>{t('prompts.pick')}</p>
            {prompts.length > 0 && (
              <p>
                <Trans i18nKey="prompts.slashHint" values={{ command: `/${prompts[0]?.name ?? ''}` }} components={{ code: <code /> }} />
              </p>
            )}
          </div>
        )}
      </div>
    </div>
  );
}
