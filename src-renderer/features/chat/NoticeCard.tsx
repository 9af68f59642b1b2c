import type { NoticeEntry } from '../../store/transcript-entries';

export function NoticeCard({ entry }: { entry: NoticeEntry }) {
  return (
    <article className={`card notice notice-${entry.tone}`} data-testid="chat-notice" data-tone={entry.tone}>
      {entry.command && <div className="card-command">{entry.command}</div>}
      <p className="notice-message">{entry.message}</p>
    </article>
  );
}
