import type { ContentBlock, ToolResult } from '../../src-shared/host-api';
import { JsonTree } from '../chat/JsonTree';
import { TextResult } from '../chat/TextResult';

export function ResultContent({ result }: { result: ToolResult }) {
  const content = Array.isArray(result.content) ? result.content : [];
  return (
    <div className="result">
      {content.length === 0 && result.structuredContent === undefined && <p className="muted">(empty result)</p>}
      {content.map((block, index) => (
        <Block key={index} block={block} />
      ))}
      {result.structuredContent !== undefined && (
        <details className="structured" open={content.length === 0}>
          <summary>Structured content</summary>
          <JsonTree value={result.structuredContent} />
        </details>
      )}
    </div>
  );
}

const safeMime = (mime: string, kind: string): string => (new RegExp(`^${kind}/[\\w.+-]+$`).test(mime) ? mime : `${kind}/png`);

function Block({ block }: { block: ContentBlock }) {
  switch (block.type) {
    case 'text':
      return <TextResult text={block.text} />;
    case 'image':
      return (
        <img
          className="block-image"
          data-testid="result-image"
          alt={`Image result (${block.mimeType})`}
          src={`data:${safeMime(block.mimeType, 'image')};base64,${block.data}`}
        />
      );
    case 'audio':
      return (
        <p className="block-note muted">
          Audio result ({block.mimeType}, {Math.round((block.data.length * 3) / 4 / 1024)} KiB) — playback is not supported here.
        </p>
      );
    case 'resource':
      return (
        <div className="block-resource">
          <code>{block.resource.uri}</code>
          {block.resource.text !== undefined ? (
            <TextResult text={block.resource.text} />
          ) : (
            <div className="muted">Binary resource{block.resource.mimeType ? ` (${block.resource.mimeType})` : ''}</div>
          )}
        </div>
      );
    case 'resource_link':
      return (
        <div className="block-resource" data-testid="result-link">
          <strong>{block.name}</strong> <code>{block.uri}</code>
          {block.description && <div className="muted">{block.description}</div>}
        </div>
      );
    default: {
      const unknownBlock: unknown = block;
      return <pre className="block-text muted">{JSON.stringify(unknownBlock, null, 2)}</pre>;
    }
  }
}
