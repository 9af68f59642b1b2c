import type { StatusReason } from '../../../src-shared/host-api';
import { localizeDiagnostic, type DiagnosticSection } from '../../../src-shared/i18n';
import { i18n } from '../../i18n';

/**
 * A sandbox, containment or ping reason (SandboxInfo.reason, ServerHealth.error) in the UI's language, from its code
 * and data (`diagnostics.<section>.<code>`); English, or a code without a wording: the host's own text.
 */
export function diagnosticReason(section: DiagnosticSection, text: string, info: StatusReason | undefined): string {
  return localizeDiagnostic(i18n, section, text, info);
}
