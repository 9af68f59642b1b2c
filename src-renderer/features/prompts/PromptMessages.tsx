import type { GetPromptView } from '../../../src-shared/contract/prompts';
import { ResultContent } from '../../ui/ResultContent';
import { useT } from '../../i18n';
import './prompts.css';

/** A prompt's messages as the server returned them, one card per message. */
export function PromptMessages({ view, server }: { view: GetPromptView; server?: string }) {
  const t = useT();
  return (
    <div className="prompt-messages" data-testid="prompt-messages">
      {view.description && <p className="muted">{view.description}</p>}
      {view.messages.length === 0 && <p className="muted">{t('prompts.noMessages')}</p>}
      {view.messages.map((message, i) => (
        <div key={i} className={`prompt-message prompt-${message.role}`} data-testid="prompt-message" data-role={message.role}>
          <span className="prompt-role">{message.role}</span>
          <ResultContent result={{ content: [message.content] }} server={server} />
        </div>
      ))}
    </div>
  );
}
