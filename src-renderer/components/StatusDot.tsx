import type { ServerStatus } from '../../src-shared/host-api';
import { useT } from '../i18n';

export const statusLabel: Record<ServerStatus, string> = {
  starting: 'Starting…',
  ready: 'Ready',
  error: 'Error',
  stopped: 'Stopped',
  'crash-loop': 'Crash loop',
  'needs-approval': 'Needs approval',
  'needs-login': 'Needs sign-in',
};

/** The status's words in the UI's language (statusLabel above is the English, for code that is not a component). */
export function useStatusLabel(): (status: ServerStatus) => string {
  const t = useT();
  return (status) => t(`status.${status}`);
}

export function StatusDot({ status }: { status: ServerStatus }) {
  return <span className={`status-dot status-${status}`} aria-hidden="true" />;
}
