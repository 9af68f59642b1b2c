import type { ServerView } from '../../../src-shared/host-api';
import { useApp } from '../../store/useApp';
import { TraceView } from './TraceView';

export function TraceTab({ server }: { server: ServerView }) {
  const state = useApp((s) => s.trace[server.name]);
  const clear = useApp((s) => s.clearTrace);
  const load = useApp((s) => s.loadTrace);
  return <TraceView server={server.name} state={state} onClear={() => void clear(server.name)} onReload={() => void load(server.name)} />;
}
