import type { AssistantMessage, ChatMessage } from '../../src-shared/chat-types';
import { Markdown } from './Markdown';
import { ToolCard } from './ToolCard';

export function MessageView({ message }: { message: ChatMessage }) {
  if (message.role === 'user') {
    return (
      <div className="msg msg-user" data-testid="user-message">
        <div className="msg-bubble">{message.text}</div>
      </div>
    );
  }
  return <AssistantView message={message} />;
}

function AssistantView({ message }: { message: AssistantMessage }) {
  const live = message.status === 'streaming';
  const empty = message.parts.length === 0;
  return (
    <div className="msg msg-assistant" data-testid="assistant-message" data-status={message.status}>
      <div className="msg-meta muted">{message.model}</div>
      {message.parts.map((part, i) =>
        part.type === 'text' ? <Markdown key={i} text={part.text} className="msg-text" /> : <ToolCard key={part.callId} part={part} live={live} />,
      )}
      {live && empty && <div className="msg-thinking muted">Thinking…</div>}
      {message.status === 'stopped' && <div className="msg-note muted" data-testid="assistant-stopped">Stopped.</div>}
      {message.error && (
        <div className="card-body call-error msg-error" data-testid="assistant-error" role="alert">
          <span className="error-code">{message.error.code}</span>
          <p>{message.error.message}</p>
        </div>
      )}
    </div>
  );
}
