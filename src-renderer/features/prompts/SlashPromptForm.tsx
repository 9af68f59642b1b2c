import { useState } from 'react';
import type { PromptInfo } from '../../../src-shared/host-api';
import { CardTitle } from '../../ui/CardTitle';
import { useApp } from '../../store/useApp';
import { resourceKey } from '../../store/feature-types';
import type { PromptFormRef } from '../../store/prompts-slice';
import { PromptForm } from './PromptForm';
import { useT } from '../../i18n';

/** The form `/prompt-name` opens above the chat box: the prompt's arguments, then its messages go into the conversation. */
export function SlashPromptForm() {
  const ref = useApp((s) => s.promptForm);
  if (!ref) return null;
  return <Form key={`${ref.server}\u0000${ref.name}`} formRef={ref} />;
}

function Form({ formRef }: { formRef: PromptFormRef }) {
  const t = useT();
  const prompt = useApp((s) => s.promptLists[formRef.server]?.value?.prompts.find((p) => p.name === formRef.name));
  const canComplete = useApp((s) => s.servers.find((v) => v.name === formRef.server)?.capabilities?.completions !== false);
  const open = useApp((s) => s.openPromptForm);
  const insert = useApp((s) => s.insertPrompt);
  const complete = useApp((s) => s.complete);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const result = useApp((s) => s.promptResults[resourceKey(formRef.server, formRef.name)]);

  const run = (args: Record<string, string>): void => {
    setBusy(true);
    setError(undefined);
    void insert(formRef.server, formRef.name, args).then((ok) => {
      setBusy(false);
      if (!ok) setError(t('prompts.notReturned'));
    });
  };
  return (
    <section
      className="card tool-form prompt-card-form"
      data-testid="slash-prompt-form"
      onKeyDown={(e) => {
        // Esc closes the form (a field's own Esc, e.g. a completion list, comes first).
        if (e.key === 'Escape' && !e.defaultPrevented) {
          e.preventDefault();
          open(undefined);
          document.querySelector<HTMLElement>('[data-testid="chat-input"]')?.focus();
        }
      }}
      aria-label={t('prompts.promptLabel', { prompt: formRef.name })}
    >
      <header className="card-head">
        <CardTitle server={formRef.server} tool={formRef.name}>
          <span className="tag">{t('prompts.tag')}</span>
        </CardTitle>
        <button
          type="button"
          className="btn btn-ghost btn-small"
          aria-label={t('prompts.closeForm')}
          data-testid="slash-prompt-close"
          onClick={() => open(undefined)}
        >
          ✕
        </button>
      </header>
      {prompt?.description && <p className="muted tool-form-desc">{prompt.description}</p>}
      {prompt ? (
        <PromptFormBody
          prompt={prompt}
          initial={formRef.args}
          busy={busy}
          error={result?.state === 'error' ? result.message : error}
          complete={
            canComplete ? (argument, value, context) => complete(formRef.server, { type: 'prompt', name: formRef.name }, argument, value, context) : undefined
          }
          run={run}
        />
      ) : (
        <p className="server-error">{t('prompts.noLonger', { server: formRef.server, prompt: formRef.name })}</p>
      )}
    </section>
  );
}

function PromptFormBody({
  prompt,
  initial,
  busy,
  error,
  complete,
  run,
}: {
  prompt: PromptInfo;
  initial: Record<string, string>;
  busy: boolean;
  error: string | undefined;
  complete: ((argument: string, value: string, context: Record<string, string>) => Promise<string[]>) | undefined;
  run(args: Record<string, string>): void;
}) {
  const t = useT();
  return (
    <PromptForm
      prompt={prompt}
      initial={initial}
      busy={busy}
      error={error}
      complete={complete}
      actions={[{ label: busy ? t('prompts.getting') : t('prompts.insert'), testId: 'slash-prompt-insert', primary: true, run }]}
    />
  );
}
