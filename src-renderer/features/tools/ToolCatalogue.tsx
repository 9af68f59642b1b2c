import type { ToolIcon, ToolInfo } from '../../../src-shared/host-api';
import { JsonTree } from '../../chat/JsonTree';
import { DetailHead } from '../../ui/FeatureParts';
import { VirtualList } from '../../ui/VirtualList';
import { revealHidden } from '../../../src-shared/hidden-text';
import { useServer } from '../../hooks/useServer';
import { ReviewPanel } from '../trust/ReviewPanel';
import { needsReview, TrustBadge } from '../trust/TrustBadge';

const toolFields = (t: ToolInfo): Array<string | undefined> => [t.name, t.title, t.description];

/** The MCP tool annotations a person cares about, as short tags. */
export function annotationTags(tool: ToolInfo): Array<{ label: string; tone: 'ok' | 'warn' | 'info'; title: string }> {
  const a = tool.annotations ?? {};
  const tags: Array<{ label: string; tone: 'ok' | 'warn' | 'info'; title: string }> = [];
  if (a.readOnlyHint === true) tags.push({ label: 'read-only', tone: 'ok', title: 'readOnlyHint: does not change its environment' });
  if (a.destructiveHint === true && a.readOnlyHint !== true) tags.push({ label: 'destructive', tone: 'warn', title: 'destructiveHint: may destroy or overwrite' });
  if (a.idempotentHint === true) tags.push({ label: 'idempotent', tone: 'info', title: 'idempotentHint: repeating it has no further effect' });
  if (a.openWorldHint === true) tags.push({ label: 'open world', tone: 'info', title: 'openWorldHint: reaches outside (web, other systems)' });
  return tags;
}

export function taskBadge(tool: ToolInfo): { label: string; title: string } | undefined {
  const support = tool.execution?.taskSupport;
  if (support === 'required') return { label: 'task only', title: 'Runs only as a task (io.modelcontextprotocol/tasks): created, polled, cancellable' };
  if (support === 'optional') return { label: 'task', title: 'Can run as a task (io.modelcontextprotocol/tasks)' };
  return undefined;
}

/** Icons the page may show: data: images only (the page's CSP loads nothing else). */
export function shownIcon(icons: ToolIcon[] | undefined): ToolIcon | undefined {
  return icons?.find((i) => /^data:image\/(png|jpeg|gif|webp|svg\+xml);base64,/i.test(i.src));
}

function Tags({ tool }: { tool: ToolInfo }) {
  const task = taskBadge(tool);
  return (
    <>
      {annotationTags(tool).map((t) => (
        <span key={t.label} className={`tag tag-${t.tone}`} title={t.title}>
          {t.label}
        </span>
      ))}
      {task && (
        <span className="tag tag-task" title={task.title} data-testid="task-badge">
          {task.label}
        </span>
      )}
      {tool.outputSchema && (
        <span className="tag" title="Declares an outputSchema for its structured content">
          output schema
        </span>
      )}
    </>
  );
}

export interface ToolCatalogueProps {
  server: string;
  tools: ToolInfo[];
  ready: boolean;
  selected: string | undefined;
  onSelect(name: string): void;
  /** Opens the call form for it in the chat. */
  onOpenForm(name: string): void;
}

/** Every tool of a server with what MCP says about it: title, annotations, icons, task support, input and output schemas. */
export function ToolCatalogue({ server, tools, ready, selected, onSelect, onOpenForm }: ToolCatalogueProps) {
  const tool = tools.find((t) => t.name === selected);
  // For a diff of changed instructions (a changed tool's review names them).
  const instructions = useServer(server)?.instructions;
  const anyIcon = tools.some((t) => shownIcon(t.icons) !== undefined);
  return (
    <div className="feature-split">
      <div className="feature-list-pane">
        <VirtualList
          items={tools}
          getKey={(t) => t.name}
          label={`Tool catalogue of ${server}`}
          searchLabel="Search tools"
          searchFields={toolFields}
          noun={['tool', 'tools']}
          selectedKey={selected}
          onSelect={(t) => onSelect(t.name)}
          testId="catalogue"
          itemTestId="catalogue-tool"
          estimateSize={52}
          empty={ready ? 'This server offers no tools.' : 'The server is not ready: its tools show once it is.'}
          renderItem={(t) => {
            const icon = shownIcon(t.icons);
            return (
              <div className="row-main row-with-icon">
                {anyIcon && (icon ? <img className="tool-icon" src={icon.src} alt="" /> : <span className="tool-icon tool-icon-blank" aria-hidden="true" />)}
                <div className="row-text">
                  <span className="row-title">
                    <span className="mono">{t.name}</span>
                    <TrustBadge tool={t} />
                    <Tags tool={t} />
                  </span>
                  {(t.title ?? t.description) && <span className="row-sub">{revealHidden((t.title && t.title !== t.name ? t.title : t.description) ?? '')}</span>}
                </div>
              </div>
            );
          }}
        />
      </div>
      <div className="feature-detail-pane">
        {tool ? (
          <section className="tool-detail" aria-label={`Tool ${tool.name}`} data-testid="tool-detail">
            <DetailHead
              title={tool.title ?? tool.name}
              id={tool.name}
              actions={
                <button
                  type="button"
                  className="btn btn-small btn-primary"
                  data-testid="catalogue-open-form"
                  disabled={!ready || needsReview(tool)}
                  title={needsReview(tool) ? 'Review it first: it cannot run until you accept it' : undefined}
                  onClick={() => onOpenForm(tool.name)}
                >
                  Call…
                </button>
              }
            />
            <p className="detail-tags">
              <TrustBadge tool={tool} />
              <Tags tool={tool} />
            </p>
            <ReviewPanel server={server} tool={tool} instructions={instructions} />
            {tool.description && <p className="detail-meta tool-description">{revealHidden(tool.description)}</p>}
            <h4>Input schema</h4>
            <JsonTree value={tool.inputSchema} openDepth={3} />
            {tool.outputSchema ? (
              <>
                <h4>Output schema</h4>
                <div data-testid="output-schema">
                  <JsonTree value={tool.outputSchema} openDepth={3} />
                </div>
              </>
            ) : (
              <p className="muted">No output schema: results are not checked.</p>
            )}
            {tool.annotations && Object.keys(tool.annotations).length > 0 && (
              <>
                <h4>Annotations</h4>
                <JsonTree value={tool.annotations} openDepth={2} />
              </>
            )}
          </section>
        ) : (
          <div className="detail-placeholder muted">
            <p>Pick a tool to see its schemas and annotations.</p>
          </div>
        )}
      </div>
    </div>
  );
}
