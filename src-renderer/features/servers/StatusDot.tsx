import type { ServerStatus } from '../../../src-shared/host-api';
import { useT } from '../../i18n';

/** A server's status, or `unknown` while the host that owns it cannot be reached. */
export type ShownStatus = ServerStatus | 'unknown';

/** The status's words in the UI's language (`status.*` in src-shared/i18n). */
export function useStatusLabel(): (status: ShownStatus) => string {
  const t = useT();
  return (status) => t(`status.${status}`);
}

export function StatusDot({ status }: { status: ShownStatus }) {
  return <span className={`status-dot status-${status}`} aria-hidden="true" />;
}
