import type { CompletionRef, CompletionView, GetPromptView, PromptListView } from '../../../../src-shared/host-api';
import { notSupported } from '../../errors';
import type { FeatureContext, SessionFeature } from './feature';

/** Prompts (`prompts/list`, `prompts/get`, `prompts/list_changed`) and `completion/complete`. Registration point. */
export class PromptsFeature implements SessionFeature {
  readonly name = 'prompts' as const;

  constructor(private readonly context: FeatureContext) {}

  list(): Promise<PromptListView> {
    throw notSupported('prompts:list', this.context.server);
  }

  get(_name: string, _args: Record<string, string>): Promise<GetPromptView> {
    throw notSupported('prompts:get', this.context.server);
  }

  complete(_request: { ref: CompletionRef; argument: { name: string; value: string }; context?: Record<string, string> }): Promise<CompletionView> {
    throw notSupported('completion:complete', this.context.server);
  }

  /** For ServerView.counts; undefined until loaded. */
  count(): number | undefined {
    return undefined;
  }

  dispose(): void {}
}
