import type { ToolIcon, ToolInfo } from '../../../src-shared/host-api';
import { JsonTree } from '../../ui/JsonTree';
import { DetailHead } from '../../ui/FeatureParts';
import { VirtualList } from '../../ui/VirtualList';
import { longTextLimit, revealHidden } from '../../../src-shared/hidden-text';
import { useServer } from '../../store/useServer';
import { ReviewPanel } from '../trust/ReviewPanel';
import { needsReview, TrustBadge } from '../trust/TrustBadge';
import { formatCount, useT } from '../../i18n';

const toolFields = (t: ToolInfo): Array<string | undefined> => [t.name, t.title, t.description];

/** The MCP tool annotations a person cares about, as short tags. */
type TagKind = 'readOnly' | 'destructive' | 'idempotent' | 'openWorld';
export function annotationTags(tool: ToolInfo): Array<{ kind: TagKind; label: string; tone: 'ok' | 'warn' | 'info'; title: string }> {
  const a = tool.annotations ?? {};
  const tags: Array<{ kind: TagKind; label: string; tone: 'ok' | 'warn' | 'info'; title: string }> = [];
  if (a.readOnlyHint === true) tags.push({ kind: 'readOnly', label: 'read-only', tone: 'ok', title: 'readOnlyHint: does not change its environment' });
  if (a.destructiveHint === true && a.readOnlyHint !== true)
    tags.push({ kind: 'destructive', label: 'destructive', tone: 'warn', title: 'destructiveHint: may destroy or overwrite' });
  if (a.idempotentHint === true)
    tags.push({ kind: 'idempotent', label: 'idempotent', tone: 'info', title: 'idempotentHint: repeating it has no further effect' });
  if (a.openWorldHint === true)
    tags.push({ kind: 'openWorld', label: 'open world', tone: 'info', title: 'openWorldHint: reaches outside (web, other systems)' });
  return tags;
}

export function taskBadge(tool: ToolInfo): { kind: 'taskOnly' | 'task'; label: string; title: string } | undefined {
  const support = tool.execution?.taskSupport;
  if (support === 'required')
    return { kind: 'taskOnly', label: 'task only', title: 'Runs only as a task (io.modelcontextprotocol/tasks): created, polled, cancellable' };
  if (support === 'optional') return { kind: 'task', label: 'task', title: 'Can run as a task (io.modelcontextprotocol/tasks)' };
  return undefined;
}

/** Icons the page may show: data: images only (the page's CSP loads nothing else). */
export function shownIcon(icons: ToolIcon[] | undefined): ToolIcon | undefined {
  return icons?.find((i) => /^data:image\/(png|jpeg|gif|webp|svg\+xml);base64,/i.test(i.src));
}

function Tags({ tool }: { tool: ToolInfo }) {
  const task = taskBadge(tool);
  const t = useT();
  return (
    <>
      {annotationTags(tool).map((tag) => (
        <span key={tag.kind} className={`tag tag-${tag.tone}`} title={t(`catalogue.tagTitle.${tag.kind}`)}>
          {t(`catalogue.tag.${tag.kind}`)}
        </span>
      ))}
      {task && (
        <span className="tag tag-task" title={t(`catalogue.tagTitle.${task.kind}`)} data-testid="task-badge">
          {t(`catalogue.tag.${task.kind}`)}
        </span>
      )}
      {tool.outputSchema && (
        <span className="tag" title={t('catalogue.tagTitle.outputSchema')}>
          {t('catalogue.tag.outputSchema')}
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
  const t = useT();
  return (
    <div className="feature-split">
      <div className="feature-list-pane">
        <VirtualList
          items={tools}
          getKey={(item) => item.name}
          label={t('catalogue.label', { server })}
          searchLabel={t('catalogue.search')}
          searchFields={toolFields}
          noun={[t('catalogue.tool'), t('catalogue.tools')]}
          selectedKey={selected}
          onSelect={(item) => onSelect(item.name)}
          testId="catalogue"
          itemTestId="catalogue-tool"
          estimateSize={52}
          empty={ready ? t('catalogue.none') : t('catalogue.notReady')}
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
                  {(t.title ?? t.description) && (
                    <span className="row-sub">{revealHidden((t.title && t.title !== t.name ? t.title : t.description) ?? '')}</span>
                  )}
                </div>
              </div>
            );
          }}
        />
      </div>
      <div className="feature-detail-pane">
        {tool ? (
          <section className="tool-detail" aria-label={t('catalogue.toolLabel', { tool: tool.name })} data-testid="tool-detail">
            <DetailHead
              title={tool.title ?? tool.name}
              id={tool.name}
              actions={
                <button
                  type="button"
                  className="btn btn-small btn-primary"
                  data-testid="catalogue-open-form"
                  disabled={!ready || needsReview(tool)}
                  title={needsReview(tool) ? t('catalogue.reviewFirst') : undefined}
                  onClick={() => onOpenForm(tool.name)}
                >
                  {t('catalogue.call')}
                </button>
              }
            />
            <p className="detail-tags">
              <TrustBadge tool={tool} />
              <Tags tool={tool} />
            </p>
            <ReviewPanel server={server} tool={tool} instructions={instructions} />
            {tool.description && <p className="detail-meta tool-description">{revealHidden(tool.description)}</p>}
            {tool.description !== undefined && tool.description.length > longTextLimit && (
              <p className="detail-meta" data-testid="description-length">
                {t('catalogue.length', { n: formatCount(tool.description.length) })}
              </p>
            )}
            <h4>{t('catalogue.inputSchema')}</h4>
            <JsonTree value={tool.inputSchema} openDepth={3} />
            {tool.outputSchema ? (
              <>
                <h4>{t('catalogue.outputSchema')}</h4>
                <div data-testid="output-schema">
                  <JsonTree value={tool.outputSchema} openDepth={3} />
                </div>
              </>
            ) : (
              <p className="muted">{t('catalogue.noOutputSchema')}</p>
            )}
            {tool.annotations && Object.keys(tool.annotations).length > 0 && (
              <>
                <h4>{t('catalogue.annotations')}</h4>
                <JsonTree value={tool.annotations} openDepth={2} />
              </>
            )}
          </section>
        ) : (
          <div className="detail-placeholder muted">
            <p>{t('catalogue.pick')}</p>
          </div>
        )}
      </div>
    </div>
  );
}
