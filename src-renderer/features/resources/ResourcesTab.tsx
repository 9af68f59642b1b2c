import type { ServerView } from '../../../src-shared/host-api';
import { useApp } from '../../hooks/useApp';
import { resourceKey, type ReadState } from '../../store/feature-types';
import { ResourcesView } from './ResourcesView';

const noReads: Record<string, number> = {};

/** The resources tab bound to the store. */
export function ResourcesTab({ server }: { server: ServerView }) {
  const name = server.name;
  const list = useApp((s) => s.resourceLists[name]);
  const selection = useApp((s) => (s.serverPage?.server === name ? s.serverPage.resource : undefined));
  const uri = selection?.kind === 'resource' ? selection.uri : selection?.uri;
  const read: ReadState | undefined = useApp((s) => (uri === undefined ? undefined : s.resourceReads[resourceKey(name, uri)]));
  const allUpdated = useApp((s) => s.resourceUpdated);
  const allSubscribing = useApp((s) => s.resourceSubscribing);
  const subscribeError = useApp((s) => (uri === undefined ? undefined : s.subscribeErrors[resourceKey(name, uri)]));
  const select = useApp((s) => s.selectResource);
  const readResource = useApp((s) => s.readResource);
  const setSubscribed = useApp((s) => s.setSubscribed);
  const load = useApp((s) => s.loadResources);
  const complete = useApp((s) => s.complete);
  const page = useApp((s) => s.serverPage);

  const prefix = `${name}\u0000`;
  const perServer = (record: Record<string, number | boolean>): Record<string, number> => {
    const out: Record<string, number> = {};
    for (const [k, v] of Object.entries(record)) if (k.startsWith(prefix)) out[k.slice(prefix.length)] = Number(v);
    return Object.keys(out).length === 0 ? noReads : out;
  };
  const subscribing = Object.fromEntries(Object.entries(perServer(allSubscribing)).map(([k, v]) => [k, v === 1]));

  if (server.capabilities?.resources === false) return <p className="muted tab-note">{name} does not offer resources.</p>;
  return (
    <>
      {subscribeError && (
        <p className="server-error" role="alert" data-testid="subscribe-error">
          {subscribeError}
        </p>
      )}
      <ResourcesView
        server={name}
        list={list}
        selection={selection}
        read={read}
        updated={perServer(allUpdated)}
        subscribing={subscribing}
        canComplete={server.capabilities?.completions !== false}
        onSelect={select}
        onRead={(u) => void readResource(name, u)}
        onReadTemplate={(uriTemplate, u) => {
          if (page) select({ kind: 'template', uriTemplate, uri: u });
        }}
        onSubscribe={(u, on) => void setSubscribed(name, u, on)}
        onRefresh={() => void load(name)}
        complete={(uriTemplate, argument, value, context) => complete(name, { type: 'resource', uri: uriTemplate }, argument, value, context)}
      />
    </>
  );
}
