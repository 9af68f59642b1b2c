import { useApp } from '../../store/useApp';
import { useT } from '../../i18n';
import './attachments.css';

/** The resources that go with the next chat message: each opens in its viewer, or comes off with ✕. */
export function AttachmentChips() {
  const t = useT();
  const attachments = useApp((s) => s.attachments);
  const detach = useApp((s) => s.detachResource);
  const open = useApp((s) => s.openResource);
  if (attachments.length === 0) return null;
  return (
    <ul className="attachment-chips" aria-label={t('resources.attachedLabel')} data-testid="attachments">
      {attachments.map((a) => (
        <li key={`${a.server}\u0000${a.uri}`} className="attachment-chip" data-testid="attachment" data-uri={a.uri}>
          <button type="button" className="attachment-open" title={`${a.server}: ${a.uri}`} onClick={() => open(a.server, a.uri)}>
            <span className="muted">{a.server}</span> <code>{a.uri}</code>
          </button>
          <button type="button" className="attachment-remove" aria-label={`Remove ${a.uri}`} data-testid="attachment-remove" onClick={() => detach(a)}>
            ✕
          </button>
        </li>
      ))}
    </ul>
  );
}
