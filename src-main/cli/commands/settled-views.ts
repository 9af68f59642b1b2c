import type { ServerView } from '../../../src-shared/host-api';
import type { Host } from '../../core/host';
import { cliReason, errorLine, statusWord } from '../i18n';
import { err } from '../output';

/** The servers a listing command reports on, once settled, and whether that is a failure (exit 1). */
export interface SettledViews {
  views: ServerView[];
  /** The one named is not ready; or, with none named, no server is ready while some failed. */
  failed: boolean;
}

/**
 * Waits for the server named (or every one) to settle and says on stderr which of them are not ready and why: the one
 * named when it is not (disabled too: nothing of it can be listed); with none named, every enabled server that is not
 * (an empty table alone would not say why). Undefined, with the error said, when the name is not in the config
 * (exit 2).
 */
export async function settledViews(host: Host, only: string | undefined): Promise<SettledViews | undefined> {
  if (only !== undefined) {
    try {
      await host.settled(only);
    } catch (error) {
      err(errorLine(error));
      return undefined;
    }
  } else await host.settled();
  const views = (await host.api['servers:list']()).filter((v) => only === undefined || v.name === only);
  const notReady = views.filter((v) => v.status !== 'ready' && (only !== undefined || !v.disabled));
  for (const v of notReady) err(`${v.name}: ${statusWord(v.status)}${v.error ? ` — ${cliReason(v.error, v.errorInfo)}` : ''}`);
  const noneReady = only === undefined && notReady.length > 0 && !views.some((v) => v.status === 'ready');
  return { views, failed: (only !== undefined && notReady.length > 0) || noneReady };
}
