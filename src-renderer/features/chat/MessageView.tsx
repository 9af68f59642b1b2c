import type { AppContextItem, AssistantMessage, ChatAttachment, ChatMessage } from '../../../src-shared/contract/chat';
import { useApp } from '../../store/useApp';
import { formatBytes } from '../../ui/search';
import { Markdown } from '../../ui/Markdown';
import { ToolCard } from './ToolCard';
import { AppSlot } from '../apps/AppView';
import { CardTitle } from '../../ui/CardTitle';
import type { ToolInputPreview } from '../../store/transcript-slice';
import { useT } from '../../i18n';
import '../resources/attachments.css';

export function MessageView({ message }: { message: ChatMessage }) {
  if (message.role === 'user') {
    return (
      <div className="msg msg-user">
        {message.fromApp && <FromApp title={message.fromApp.title} server={message.fromApp.server} />}
        <div className="msg-bubble" data-testid="user-message">
          {message.text}
        </div>
        {message.attachments && message.attachments.length > 0 && <SentAttachments attachments={message.attachments} />}
        {message.appContext && message.appContext.length > 0 && <SentAppContext items={message.appContext} />}
      </div>
    );
  }
  return <AssistantView message={message} />;
}

/** The message is an app's `ui/message`: said so above it. */
function FromApp({ title, server }: { title: string; server: string }) {
  const t = useT();
  return (
    <div className="msg-from-app muted" data-testid="message-from-app" title={server}>
      {t('apps.messageFrom', { title })}
    </div>
  );
}

/** What apps kept for the model and the message carried to it (each openable to read what was sent). */
function SentAppContext({ items }: { items: AppContextItem[] }) {
  const t = useT();
  return (
    <ul className="sent-attachments sent-app-context" aria-label={t('message.appContextLabel')} data-testid="sent-app-context">
      {items.map((item, i) => (
        <li key={i}>
          <details>
            <summary>{t('message.appContext', { title: item.title, server: item.server })}</summary>
            <pre className="block-text">{item.text}</pre>
          </details>
        </li>
      ))}
    </ul>
  );
}

/** The resources that went with a message, as main read them then. */
function SentAttachments({ attachments }: { attachments: ChatAttachment[] }) {
  const open = useApp((s) => s.openResource);
  const t = useT();
  return (
    <ul className="sent-attachments" aria-label={t('message.sentWith')} data-testid="sent-attachments">
      <li className="muted" aria-hidden="true">
        {t('message.with')}
      </li>
      {attachments.map((a) => {
        const first = a.contents[0];
        const size = a.contents.reduce((n, c) => n + c.size, 0);
        const truncated = a.contents.some((c) => c.truncated === true);
        return (
          <li key={`${a.server}\u0000${a.uri}`}>
            <button
              type="button"
              className="attachment-open"
              title={`Open ${a.uri} on ${a.server}`}
              onClick={() =>
                open(
                  a.server,
                  a.uri,
                  first
                    ? {
                        uri: first.uri,
                        ...(first.mimeType ? { mimeType: first.mimeType } : {}),
                        ...(first.text !== undefined ? { text: first.text } : {}),
                        ...(first.blob !== undefined ? { blob: first.blob } : {}),
                      }
                    : undefined,
                )
              }
            >
              {a.name ?? a.uri}
            </button>
            <span className="muted">
              {' '}
              {formatBytes(size)}
              {truncated && t('message.cut')}
            </span>
          </li>
        );
      })}
    </ul>
  );
}

/**
 * A call with an app whose arguments the model is still writing: the app shows at once with what is written so far
 * (`tool-input-partial`); the call's own card replaces this one when the call is complete.
 */
function ToolInputCard({ preview }: { preview: ToolInputPreview }) {
  const t = useT();
  return (
    <article className="card call call-running tool-card" data-testid="tool-input-card" data-server={preview.server} data-tool={preview.tool} aria-busy>
      <header className="card-head">
        <CardTitle server={preview.server} tool={preview.tool} />
        <span className="pill pill-running">{t('toolCard.writingInput')}</span>
      </header>
      <AppSlot server={preview.server} tool={preview.tool} args={preview.args} result={undefined} callId={preview.modelCallId} partial />
    </article>
  );
}

function AssistantView({ message }: { message: AssistantMessage }) {
  const live = message.status === 'streaming';
  const previews = useApp((s) => s.toolInputs[message.id]);
  const empty = message.parts.length === 0;
  const t = useT();
  return (
    <div className="msg msg-assistant" data-testid="assistant-message" data-status={message.status}>
      <div className="msg-meta muted">{message.model}</div>
      {message.parts.map((part, i) =>
        part.type === 'text' ? <Markdown key={i} text={part.text} className="msg-text" /> : <ToolCard key={part.callId} part={part} live={live} />,
      )}
      {live && previews?.map((p) => <ToolInputCard key={`input-${p.modelCallId}`} preview={p} />)}
      {live && empty && !previews && <div className="msg-thinking muted">{t('message.thinking')}</div>}
      {message.status === 'stopped' && (
        <div className="msg-note muted" data-testid="assistant-stopped">
          {t('message.stopped')}
        </div>
      )}
      {message.error && (
        <div className="card-body call-error msg-error" data-testid="assistant-error" role="alert">
          <span className="error-code">{message.error.code}</span>
          <p>{message.error.message}</p>
        </div>
      )}
    </div>
  );
}
