import type { ContentBlock, ToolResult } from '../../src-shared/host-api';
import { JsonTree } from './JsonTree';
import { MarkdownSourceContext } from './Markdown';
import { TextResult } from './TextResult';
import { useApp } from '../store/useApp';
import { Trans } from 'react-i18next';
import { formatCount, useT } from '../i18n';
import './result-content.css';

/** A tool result's blocks; `server` (the one that answered) lets a resource link or embedded resource be opened. */
export function ResultContent({ result, server }: { result: ToolResult; server?: string | undefined }) {
  const content = Array.isArray(result.content) ? result.content : [];
  const t = useT();
  return (
    <div className="result">
      {content.length === 0 && result.structuredContent === undefined && <p className="muted">{t('call.emptyResult')}</p>}
      {content.map((block, index) => (
        <Block key={index} block={block} server={server} />
      ))}
      {result.outputSchemaError && (
        <p className="schema-mismatch" role="note" data-testid="output-schema-error">
          <span className="error-code">{t('call.outputSchema')}</span> {t('call.schemaMismatch', { error: result.outputSchemaError })}
        </p>
      )}
      {result.task && (
        <p className="muted result-task" data-testid="result-task">
          <Trans
            i18nKey="call.ranAsTask"
            values={{ taskId: result.task.taskId, status: t(`call.taskStatus.${result.task.status}`) }}
            components={{ code: <code /> }}
          />
        </p>
      )}
      {result.structuredContent !== undefined && (
        <details className="structured" open={content.length === 0}>
          <summary>{t('call.structured')}</summary>
          <JsonTree value={result.structuredContent} />
        </details>
      )}
    </div>
  );
}

/** "Open" on a resource link or embedded resource: the resource viewer of the server that returned it. */
function OpenResource({
  server,
  uri,
  embedded,
  name,
}: {
  server: string;
  uri: string;
  embedded?: { uri: string; mimeType?: string; text?: string; blob?: string };
  name: string;
}) {
  const openResource = useApp((s) => s.openResource);
  const t = useT();
  return (
    <button
      type="button"
      className="btn btn-small"
      data-testid="open-resource"
      aria-label={t('call.openLabel', { name })}
      onClick={() => openResource(server, uri, embedded)}
    >
      {t('call.open')}
    </button>
  );
}

const safeMime = (mime: string, kind: string): string => (new RegExp(`^${kind}/[\\w.+-]+$`).test(mime) ? mime : `${kind}/png`);

function Block({ block, server }: { block: ContentBlock; server: string | undefined }) {
  const t = useT();
  switch (block.type) {
    case 'text':
      return <TextResult text={block.text} />;
    case 'image':
      return (
        <img
          className="block-image"
          data-testid="result-image"
          alt={t('call.imageAlt', { mime: block.mimeType })}
          src={`data:${safeMime(block.mimeType, 'image')};base64,${block.data}`}
        />
      );
    case 'audio':
      return <p className="block-note muted">{t('call.audio', { mime: block.mimeType, size: formatCount(Math.round((block.data.length * 3) / 4 / 1024)) })}</p>;
    case 'resource':
      return (
        <div className="block-resource" data-testid="result-resource">
          <div className="block-resource-head">
            <code>{block.resource.uri}</code>
            {server !== undefined && <OpenResource server={server} uri={block.resource.uri} embedded={block.resource} name={block.resource.uri} />}
          </div>
          {block.resource.text !== undefined ? (
            <MarkdownSourceContext.Provider value={{ server, uri: block.resource.uri }}>
              <TextResult text={block.resource.text} />
            </MarkdownSourceContext.Provider>
          ) : (
            <div className="muted">Binary resource{block.resource.mimeType ? ` (${block.resource.mimeType})` : ''}</div>
          )}
        </div>
      );
    case 'resource_link':
      return (
        <div className="block-resource" data-testid="result-link">
          <div className="block-resource-head">
            <strong>{block.name}</strong> <code>{block.uri}</code>
            {server !== undefined && <OpenResource server={server} uri={block.uri} name={block.name} />}
          </div>
          {block.description && <div className="muted">{block.description}</div>}
        </div>
      );
    default: {
      const unknownBlock: unknown = block;
      return <pre className="block-text muted">{JSON.stringify(unknownBlock, null, 2)}</pre>;
    }
  }
}
