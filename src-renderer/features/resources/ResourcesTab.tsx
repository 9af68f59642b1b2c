import { useMemo } from 'react';
import type { ServerView } from '../../../src-shared/host-api';
import { useApp } from '../../store/useApp';
import { resourceKey, type ReadState } from '../../store/feature-types';
import { ErrorNote } from '../../ui/FeatureParts';
import { useT } from '../../i18n';
import { ResourcesView } from './ResourcesView';
import './resources.css';

const none: Record<string, number> = {};

/** The entries of a record keyed by resourceKey(server, uri) that belong to one server, keyed by uri. */
function forServer<T>(record: Record<string, T>, server: string): Record<string, T> {
  const prefix = `${server}\u0000`;
  const out: Record<string, T> = {};
  for (const [k, v] of Object.entries(record)) if (k.startsWith(prefix)) out[k.slice(prefix.length)] = v;
  return out;
}

/** The resources tab bound to the store. */
export function ResourcesTab({ server }: { server: ServerView }) {
  const name = server.name;
  const list = useApp((s) => s.resourceLists[name]);
  const selection = useApp((s) => (s.serverPage?.server === name ? s.serverPage.resource : undefined));
  const uri = selection?.uri;
  const read: ReadState | undefined = useApp((s) => (uri === undefined ? undefined : s.resourceReads[resourceKey(name, uri)]));
  const allUpdated = useApp((s) => s.resourceUpdated);
  const allSubscribing = useApp((s) => s.resourceSubscribing);
  const subscribeError = useApp((s) => (uri === undefined ? undefined : s.subscribeErrors[resourceKey(name, uri)]));
  const select = useApp((s) => s.selectResource);
  const readResource = useApp((s) => s.readResource);
  const setSubscribed = useApp((s) => s.setSubscribed);
  const load = useApp((s) => s.loadResources);
  const complete = useApp((s) => s.complete);
  const updated = useMemo(() => forServer(allUpdated, name), [allUpdated, name]);
  const subscribing = useMemo(() => forServer(allSubscribing, name), [allSubscribing, name]);
  const allAttached = useApp((s) => s.attachments);
  const attached = useMemo(() => new Set(allAttached.filter((a) => a.server === name).map((a) => a.uri)), [allAttached, name]);
  const attach = useApp((s) => s.attachResource);
  const detach = useApp((s) => s.detachResource);
  const t = useT();

  if (server.capabilities?.resources === false) return <p className="muted tab-note">{t('resources.notOffered', { server: name })}</p>;
  return (
    <>
      {subscribeError && <ErrorNote testId="subscribe-error">{subscribeError}</ErrorNote>}
      <ResourcesView
        server={name}
        list={list}
        selection={selection}
        read={read}
        updated={Object.keys(updated).length === 0 ? none : updated}
        subscribing={subscribing}
        canComplete={server.capabilities?.completions !== false}
        onSelect={select}
        onRead={(u) => void readResource(name, u)}
        onReadTemplate={(uriTemplate, u) => select({ kind: 'template', uriTemplate, uri: u })}
        onSubscribe={(u, on) => void setSubscribed(name, u, on)}
        onRefresh={() => void load(name)}
        complete={(uriTemplate, argument, value, context) => complete(name, { type: 'resource', uri: uriTemplate }, argument, value, context)}
        attached={attached}
        onAttach={(u, on) => (on ? attach({ server: name, uri: u }) : detach({ server: name, uri: u }))}
      />
    </>
  );
}
