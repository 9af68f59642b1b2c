import { useEffect, useRef } from 'react';
import { useApp } from '../hooks/useApp';
import { CallCard } from './CallCard';
import { NoticeCard } from './NoticeCard';

export function ChatLog() {
  const entries = useApp((s) => s.entries);
  const end = useRef<HTMLDivElement>(null);

  useEffect(() => {
    end.current?.scrollIntoView({ block: 'end' });
  }, [entries]);

  return (
    <div className="chat-log" role="log" aria-label="Tool calls" aria-live="polite" data-testid="chat-log">
      {entries.length === 0 && <EmptyChat />}
      {entries.map((entry) =>
        entry.kind === 'call' ? <CallCard key={entry.id} entry={entry} /> : <NoticeCard key={entry.id} entry={entry} />,
      )}
      <div ref={end} />
    </div>
  );
}

function EmptyChat() {
  return (
    <div className="chat-empty">
      <h2>Call a tool</h2>
      <p>
        Type <code>/add {'{"a":2,"b":3}'}</code> below, or pick a tool on the left to fill in a form.
      </p>
      <p className="muted">
        <code>/server.tool</code> or <code>/server/tool</code> picks a server when several offer the same tool.
      </p>
    </div>
  );
}
