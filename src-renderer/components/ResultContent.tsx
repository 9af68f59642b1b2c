import type { ContentBlock, ToolResult } from '../../src-shared/host-api';

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
          <pre>{JSON.stringify(result.structuredContent, null, 2)}</pre>
        </details>
      )}
    </div>
  );
}

const safeMime = (mime: string, kind: string): string => (new RegExp(`^${kind}/[\\w.+-]+$`).test(mime) ? mime : `${kind}/png`);

function Block({ block }: { block: ContentBlock }) {
  switch (block.type) {
    case 'text':
      return (
        <pre className="block-text" data-testid="result-text">
          {block.text}
        </pre>
      );
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
            <pre className="block-text">{block.resource.text}</pre>
          ) : (
            <p className="muted">Binary resource{block.resource.mimeType ? ` (${block.resource.mimeType})` : ''}</p>
          )}
        </div>
      );
    case 'resource_link':
      return (
        <div className="block-resource">
          <strong>{block.name}</strong> <code>{block.uri}</code>
          {block.description && <p className="muted">{block.description}</p>}
        </div>
      );
    default: {
      const unknownBlock: unknown = block;
      return <pre className="block-text muted">{JSON.stringify(unknownBlock, null, 2)}</pre>;
    }
  }
}
