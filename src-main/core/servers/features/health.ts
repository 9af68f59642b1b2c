import type { PingView, ServerHealth } from '../../../../src-shared/host-api';
import { notSupported } from '../../errors';
import type { FeatureContext, SessionFeature } from './feature';

/** `ping` (legacy) / `server/discover` (2026-07-28), on demand and periodic for remote servers. Registration point. */
export class HealthFeature implements SessionFeature {
  readonly name = 'health' as const;

  constructor(private readonly context: FeatureContext) {}

  ping(): Promise<PingView> {
    throw notSupported('servers:ping', this.context.server);
  }

  /** For ServerView.health. */
  view(): ServerHealth | undefined {
    return undefined;
  }

  dispose(): void {}
}
