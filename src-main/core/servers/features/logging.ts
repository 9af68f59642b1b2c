import type { LogEntry, LogLevel } from '../../../../src-shared/host-api';
import { notSupported } from '../../errors';
import type { FeatureContext, SessionFeature } from './feature';

/**
 * Server log messages (`notifications/message`) and `logging/setLevel`. Lives as long as the server's supervisor,
 * so a crash's messages survive the restart. Registration point: the logging engineer fills it in.
 */
export class LoggingFeature implements SessionFeature {
  readonly name = 'logging' as const;

  constructor(private readonly context: FeatureContext) {}

  list(_after?: number, _limit?: number): LogEntry[] {
    throw notSupported('logs:list', this.context.server);
  }

  setLevel(_level: LogLevel): Promise<void> {
    throw notSupported('logs:set-level', this.context.server);
  }

  /** For ServerView.logLevel. */
  level(): LogLevel | undefined {
    return undefined;
  }

  dispose(): void {}
}
