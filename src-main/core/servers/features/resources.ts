import type { ReadResourceView, ResourceListView } from '../../../../src-shared/host-api';
import { notSupported } from '../../errors';
import type { FeatureContext, SessionFeature } from './feature';

/**
 * Resources (`resources/list` + templates, read, subscribe; `resources/list_changed`). Registration point: the
 * session drives it like every feature; the resources engineer fills it in (a ListFeature like ToolsFeature).
 */
export class ResourcesFeature implements SessionFeature {
  readonly name = 'resources' as const;

  constructor(private readonly context: FeatureContext) {}

  list(): Promise<ResourceListView> {
    throw notSupported('resources:list', this.context.server);
  }

  read(_uri: string): Promise<ReadResourceView> {
    throw notSupported('resources:read', this.context.server);
  }

  subscribe(_uri: string): Promise<void> {
    throw notSupported('resources:subscribe', this.context.server);
  }

  unsubscribe(_uri: string): Promise<void> {
    throw notSupported('resources:unsubscribe', this.context.server);
  }

  /** For ServerView.counts; undefined until loaded. */
  counts(): { resources: number; templates: number } | undefined {
    return undefined;
  }

  dispose(): void {}
}
