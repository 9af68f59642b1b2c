import { CardTitle } from '../../ui/CardTitle';
import { useApp } from '../../store/useApp';
import { canChat } from '../../store/providers-slice';
import type { PromptEntry } from '../../store/transcript-entries';
import { PromptMessages } from './PromptMessages';
import { useT } from '../../i18n';
import './prompts.css';

/** A prompt inserted into the conversation: its messages, and (with a model to talk to) a button to send them. */
export function PromptCard({ entry }: { entry: PromptEntry }) {
  const t = useT();
  const { insert } = entry;
  const chatting = useApp((s) => canChat(s.providers));
  const running = useApp((s) => s.activeRunId !== undefined || s.sending);
  const send = useApp((s) => s.sendPromptEntry);
  const args = Object.entries(insert.args);
  return (
    <article className="card prompt-card" data-testid="prompt-card" data-server={insert.server} data-prompt={insert.prompt}>
      <header className="card-head">
        <CardTitle server={insert.server} tool={insert.prompt}>
          <span className="tag">{t('prompts.tag')}</span>
        </CardTitle>
        <span className="spacer" />
        {chatting && (
          <button type="button" className="btn btn-small btn-primary" data-testid="prompt-send" disabled={running} onClick={() => void send(entry.id)}>
            {t('prompts.sendToModel')}
          </button>
        )}
      </header>
      {args.length > 0 && (
        <div className="card-command" title={t('prompts.arguments')}>
          {args.map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(' ')}
        </div>
      )}
      <div className="card-body">
        <PromptMessages view={{ ...(insert.description ? { description: insert.description } : {}), messages: insert.messages }} server={insert.server} />
      </div>
    </article>
  );
}
