import type { ResourceContents } from '../../../src-shared/contract/resources';
import { useContext } from 'react';
import { MarkdownSourceContext } from '../../ui/Markdown';
import { TextResult } from '../../ui/TextResult';
import { formatBytes } from '../../ui/search';
import { base64Bytes, downloadContents } from './download';
import { useT } from '../../i18n';

const imageMime = /^image\/(png|jpeg|gif|webp|bmp|avif|x-icon|vnd\.microsoft\.icon)$/i;

/** One item of a read result: text shown, an image inline, anything else offered to save. */
export function ResourceContent({ contents, showUri }: { contents: ResourceContents; showUri: boolean }) {
  const t = useT();
  const { server } = useContext(MarkdownSourceContext);
  const mime = contents.mimeType;
  return (
    <div className="resource-content" data-testid="resource-content" data-uri={contents.uri}>
      {(showUri || mime) && (
        <div className="resource-content-head">
          {showUri && <code className="resource-uri">{contents.uri}</code>}
          {mime && <span className="chip">{mime}</span>}
          <span className="spacer" />
          <button type="button" className="btn btn-small btn-ghost" data-testid="resource-save" onClick={() => downloadContents(contents)}>
            {t('resources.save')}
          </button>
        </div>
      )}
      {contents.text !== undefined ? (
        // Relative links in it resolve against this resource's URI.
        <MarkdownSourceContext.Provider value={{ server, uri: contents.uri }}>
          <TextResult text={contents.text} />
        </MarkdownSourceContext.Provider>
      ) : contents.blob !== undefined ? (
        mime && imageMime.test(mime) ? (
          <img className="block-image" data-testid="resource-image" alt={`${contents.uri} (${mime})`} src={`data:${mime};base64,${contents.blob}`} />
        ) : (
          <div className="resource-binary" data-testid="resource-binary">
            <span className="muted">
              {mime
                ? t('resources.binaryMime', { mime, size: formatBytes(base64Bytes(contents.blob)) })
                : t('resources.binary', { size: formatBytes(base64Bytes(contents.blob)) })}
            </span>
            <button type="button" className="btn btn-small" data-testid="resource-download" onClick={() => downloadContents(contents)}>
              {t('resources.download')}
            </button>
          </div>
        )
      ) : (
        <p className="muted">{t('resources.noContent')}</p>
      )}
    </div>
  );
}
