import { useMemo } from 'react';
import type { ResourceInfo, ResourceListView, ResourceTemplateInfo } from '../../../src-shared/contract/resources';
import type { ReadState, ResourceListState, ResourceSelection } from '../../store/feature-types';
import { ErrorNote, ReloadButton } from '../../ui/FeatureParts';
import { VirtualList } from '../../ui/VirtualList';
import { MarkdownSourceContext } from '../../ui/Markdown';
import { ResourceViewer } from './ResourceViewer';
import { TemplateForm } from './TemplateForm';
import { useT } from '../../i18n';

type Row = { kind: 'template'; template: ResourceTemplateInfo } | { kind: 'resource'; resource: ResourceInfo };

const rowKey = (row: Row): string => (row.kind === 'template' ? `t:${row.template.uriTemplate}` : `r:${row.resource.uri}`);
const rowFields = (row: Row): Array<string | undefined> =>
  row.kind === 'template'
    ? [row.template.name, row.template.title, row.template.uriTemplate, row.template.description]
    : [row.resource.name, row.resource.title, row.resource.uri, row.resource.description, row.resource.mimeType];

export interface ResourcesViewProps {
  server: string;
  list: ResourceListState | undefined;
  selection: ResourceSelection | undefined;
  /** The read of the selected URI (the resource's, or what the template expanded to). */
  read: ReadState | undefined;
  /** Per URI: when the server last said it changed. */
  updated: Record<string, number>;
  subscribing: Record<string, boolean>;
  canComplete: boolean;
  onSelect(selection: ResourceSelection): void;
  onRead(uri: string): void;
  onReadTemplate(uriTemplate: string, uri: string): void;
  onSubscribe(uri: string, on: boolean): void;
  onRefresh(): void;
  complete(uriTemplate: string, argument: string, value: string, context: Record<string, string>): Promise<string[]>;
  /** URIs attached to the next chat message. */
  attached: ReadonlySet<string>;
  onAttach(uri: string, on: boolean): void;
}

/** A server's resources and templates (searchable, virtualised) beside the one that is open. */
export function ResourcesView(props: ResourcesViewProps) {
  const t = useT();
  const { list, selection } = props;
  const view: ResourceListView | undefined = list?.value;
  const rows = useMemo<Row[]>(
    () => [
      ...(view?.templates ?? []).map((template): Row => ({ kind: 'template', template })),
      ...(view?.resources ?? []).map((resource): Row => ({ kind: 'resource', resource })),
    ],
    [view],
  );
  const subscribed = useMemo(() => new Set(view?.subscribed ?? []), [view]);
  const selectedKey = selection === undefined ? undefined : selection.kind === 'template' ? `t:${selection.uriTemplate}` : `r:${selection.uri}`;
  const error = list?.state === 'error' ? list.message : view?.error;

  return (
    <div className="feature-split">
      <div className="feature-list-pane">
        {error && <ErrorNote testId="resources-error">{t('resourceList.listFailed', { error })}</ErrorNote>}
        <VirtualList
          items={rows}
          getKey={rowKey}
          label={t('resources.label', { server: props.server })}
          searchLabel={t('resources.search')}
          searchFields={rowFields}
          noun={[t('resourceList.item'), t('resourceList.items')]}
          selectedKey={selectedKey}
          onSelect={(row) =>
            props.onSelect(row.kind === 'template' ? { kind: 'template', uriTemplate: row.template.uriTemplate } : { kind: 'resource', uri: row.resource.uri })
          }
          testId="resource-list"
          itemTestId="resource-item"
          estimateSize={48}
          empty={list === undefined || list.state === 'loading' ? t('common.loading') : t('resources.none')}
          toolbar={<ReloadButton label={t('resources.reloadList')} title={t('resources.reloadListTitle')} onClick={props.onRefresh} />}
          renderItem={(row) =>
            row.kind === 'template' ? (
              <div className="row-main">
                <span className="row-title">
                  {row.template.title ?? row.template.name}
                  <span className="tag">{t('resources.template')}</span>
                </span>
                <code className="row-sub">{row.template.uriTemplate}</code>
              </div>
            ) : (
              <div className="row-main">
                <span className="row-title">
                  {row.resource.title ?? row.resource.name}
                  {subscribed.has(row.resource.uri) && (
                    <span className="tag tag-live" title={t('resources.liveTitle')}>
                      {t('resources.live')}
                    </span>
                  )}
                  {props.updated[row.resource.uri] !== undefined && (
                    <span className="updated-dot" title={t('resources.updatedSince')} aria-label={t('resources.updatedDot')} />
                  )}
                </span>
                <code className="row-sub">{row.resource.uri}</code>
              </div>
            )
          }
        />
      </div>
      <div className="feature-detail-pane">
        <Detail {...props} view={view} subscribed={subscribed} />
      </div>
    </div>
  );
}

function Detail(props: ResourcesViewProps & { view: ResourceListView | undefined; subscribed: Set<string> }) {
  const t = useT();
  const { selection, view } = props;
  if (!selection) {
    return (
      <div className="detail-placeholder muted">
        <p>{t('resources.pick')}</p>
      </div>
    );
  }
  if (selection.kind === 'template') {
    const template = view?.templates.find((tpl) => tpl.uriTemplate === selection.uriTemplate);
    return (
      <>
        {template ? (
          <TemplateForm
            key={template.uriTemplate}
            template={template}
            complete={props.canComplete ? (argument, value, context) => props.complete(template.uriTemplate, argument, value, context) : undefined}
            onRead={(uri) => props.onReadTemplate(template.uriTemplate, uri)}
          />
        ) : (
          <p className="muted">The server no longer offers the template {selection.uriTemplate}.</p>
        )}
        {selection.uri !== undefined && <Viewer {...props} uri={selection.uri} />}
      </>
    );
  }
  return <Viewer {...props} uri={selection.uri} />;
}

function Viewer(props: ResourcesViewProps & { view: ResourceListView | undefined; subscribed: Set<string>; uri: string }) {
  const { uri, view, selection } = props;
  return (
    <MarkdownSourceContext.Provider value={{ server: props.server, uri }}>
      <ResourceViewer
        key={uri}
        uri={uri}
        info={view?.resources.find((r) => r.uri === uri)}
        read={props.read}
        embedded={selection?.kind === 'resource' ? selection.embedded : undefined}
        canSubscribe={view?.canSubscribe === true}
        subscribed={props.subscribed.has(uri)}
        subscribing={props.subscribing[uri] === true}
        updatedAt={props.updated[uri]}
        onRead={() => props.onRead(uri)}
        onSubscribe={(on) => props.onSubscribe(uri, on)}
        attached={props.attached.has(uri)}
        onAttach={(on) => props.onAttach(uri, on)}
      />
    </MarkdownSourceContext.Provider>
  );
}
