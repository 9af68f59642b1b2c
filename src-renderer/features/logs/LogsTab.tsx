import type { ServerView } from '../../../src-shared/host-api';
import { useApp } from '../../store/useApp';
import { LogsView } from './LogsView';

export function LogsTab({ server }: { server: ServerView }) {
  const name = server.name;
  const state = useApp((s) => s.logs[name]);
  const levelError = useApp((s) => s.logLevelErrors[name]);
  const setLogLevel = useApp((s) => s.setLogLevel);
  const load = useApp((s) => s.loadLogs);
  // The level is asked of every connected server: logging/setLevel on the legacy era, each request's _meta on 2026-07-28.
  const canSetLevel = server.status === 'ready';
  return (
    <LogsView
      server={name}
      state={state}
      serverLevel={server.logLevel}
      canSetLevel={canSetLevel}
      levelError={levelError}
      onSetLevel={(level) => void setLogLevel(name, level)}
      onReload={() => void load(name)}
    />
  );
}
