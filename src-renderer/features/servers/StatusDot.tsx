import type { ServerStatus } from '../../../src-shared/host-api';
import { useT } from '../../i18n';

/** The status's words in the UI's language (`status.*` in src-shared/i18n). */
export function useStatusLabel(): (status: ServerStatus) => string {
  const t = useT();
  return (status) => t(`status.${status}`);
}

export function StatusDot({ status }: { status: ServerStatus }) {
  return <span className={`status-dot status-${status}`} aria-hidden="true" />;
}
