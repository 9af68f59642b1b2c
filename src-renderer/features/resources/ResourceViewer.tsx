import type { ResourceContents, ResourceInfo } from '../../../src-shared/contract/resources';
import type { ReadState } from '../../store/feature-types';
import { DetailHead, ErrorNote } from '../../ui/FeatureParts';
import { formatBytes, formatClock } from '../../ui/search';
import { ResourceContent } from './ResourceContent';
import { useT } from '../../i18n';

export interface ResourceViewerProps {
  uri: string;
  /** What the list says about it (absent for a link or template result the list does not name). */
  info?: ResourceInfo | undefined;
  read: ReadState | undefined;
  /** The contents a tool result embedded, shown until it is read from the server. */
  embedded?: ResourceContents | undefined;
  canSubscribe: boolean;
  subscribed: boolean;
  subscribing: boolean;
  /** When the server last said this resource changed. */
  updatedAt?: number | undefined;
  onRead(): void;
  onSubscribe(on: boolean): void;
  /** Whether it goes with the next chat message (as context for the model); absent: not offered. */
  attached?: boolean | undefined;
  onAttach?(on: boolean): void;
}

/** A resource read: its contents, a reload, and a live subscription where the server offers one. */
export function ResourceViewer({
  uri,
  info,
  read,
  embedded,
  canSubscribe,
  subscribed,
  subscribing,
  updatedAt,
  onRead,
  onSubscribe,
  attached,
  onAttach,
}: ResourceViewerProps) {
  const t = useT();
  const title = info?.title ?? info?.name;
  const fresh = updatedAt !== undefined && (read?.state !== 'ok' || read.at < updatedAt);
  const contents = read?.state === 'ok' ? read.value.contents : (read?.value?.contents ?? (embedded ? [embedded] : undefined));
  return (
    <section className="resource-viewer" aria-label={`Resource ${uri}`} data-testid="resource-viewer" data-uri={uri}>
      <DetailHead
        title={title || undefined}
        id={uri}
        idTitle={uri}
        actions={
          <>
            {updatedAt !== undefined && (
              <span
                className={`updated-mark${fresh ? ' is-fresh' : ''}`}
                data-testid="resource-updated"
                title={t('resources.updatedAt', { time: formatClock(updatedAt) })}
              >
                {t('resources.updated', { time: formatClock(updatedAt).slice(0, 8) })}
              </span>
            )}
            {canSubscribe && (
              <button
                type="button"
                className={`btn btn-small${subscribed ? ' is-on' : ''}`}
                aria-pressed={subscribed}
                data-testid="resource-subscribe"
                disabled={subscribing}
                title={subscribed ? t('resources.stopLive') : t('resources.getTold')}
                onClick={() => onSubscribe(!subscribed)}
              >
                {subscribed ? t('resources.subscribed') : t('resources.subscribe')}
              </button>
            )}
            {onAttach && (
              <button
                type="button"
                className={`btn btn-small${attached ? ' is-on' : ''}`}
                aria-pressed={attached === true}
                data-testid="resource-attach"
                title={attached ? t('resources.attachedTitle') : t('resources.attachTitle')}
                onClick={() => onAttach(!attached)}
              >
                {attached ? t('resources.attached') : t('resources.attach')}
              </button>
            )}
            <button type="button" className="btn btn-small" data-testid="resource-read" disabled={read?.state === 'loading'} onClick={onRead}>
              {read === undefined && embedded ? t('resources.readFromServer') : read?.state === 'loading' ? t('resources.reading') : t('resources.reload')}
            </button>
          </>
        }
      />
      {(info?.description || info?.mimeType || info?.size !== undefined) && (
        <p className="detail-meta muted">
          {info.description}
          {info.mimeType && <span className="chip">{info.mimeType}</span>}
          {info.size !== undefined && <span className="chip">{formatBytes(info.size)}</span>}
        </p>
      )}
      {embedded && read === undefined && <p className="muted detail-note">{t('resources.embedded')}</p>}
      {read?.state === 'error' && <ErrorNote testId="resource-error">{read.message}</ErrorNote>}
      {read?.state === 'loading' && contents === undefined && <p className="muted">{t('resources.reading')}</p>}
      {contents && (
        <div className="resource-contents">
          {contents.length === 0 && <p className="muted">{t('resources.noContents')}</p>}
          {contents.map((c, i) => (
            <ResourceContent key={`${c.uri}-${i}`} contents={c} showUri={contents.length > 1 || c.uri !== uri} />
          ))}
        </div>
      )}
    </section>
  );
}
