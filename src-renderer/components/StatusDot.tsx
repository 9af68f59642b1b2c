import type { ServerStatus } from '../../src-shared/host-api';

export const statusLabel: Record<ServerStatus, string> = {
  starting: 'Starting…',
  ready: 'Ready',
  error: 'Error',
  stopped: 'Stopped',
  'crash-loop': 'Crash loop',
  'needs-approval': 'Needs approval',
  'needs-login': 'Needs sign-in',
};

export function StatusDot({ status }: { status: ServerStatus }) {
  return <span className={`status-dot status-${status}`} aria-hidden="true" />;
}
