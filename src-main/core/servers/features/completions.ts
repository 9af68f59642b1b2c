import type { Client } from '@modelcontextprotocol/client';
import type { CompletionRef, CompletionView } from '../../../../src-shared/host-api';
import { CoreError, messageOf } from '../../errors';
import type { FeatureContext, SessionFeature } from './feature';

export interface CompletionRequest {
  ref: CompletionRef;
  argument: { name: string; value: string };
  /** Values of the other arguments already chosen (MCP `context.arguments`). */
  context?: Record<string, string>;
}

/** The most values one answer carries (MCP caps a completion at 100). */
const maxValues = 100;

/**
 * `completion/complete`: suggestions for a prompt's argument or a resource template's variable, as a person
 * types. Same request in both eras; refused with `not-supported` when the server lacks the `completions`
 * capability. Holds no state of its own.
 */
export class CompletionsFeature implements SessionFeature {
  readonly name = 'completions' as const;

  constructor(private readonly context: FeatureContext) {}

  async complete(request: CompletionRequest): Promise<CompletionView> {
    const client = this.client(request);
    const ref =
      request.ref.type === 'prompt' ? ({ type: 'ref/prompt', name: request.ref.name } as const) : ({ type: 'ref/resource', uri: request.ref.uri } as const);
    const hasContext = request.context !== undefined && Object.keys(request.context).length > 0;
    try {
      const result = await client.complete(
        { ref, argument: request.argument, ...(hasContext ? { context: { arguments: request.context } } : {}) },
        { timeout: this.context.requestTimeoutMs() },
      );
      const { values, total, hasMore } = result.completion;
      return {
        values: values.slice(0, maxValues),
        ...(typeof total === 'number' ? { total } : {}),
        ...(hasMore === true || values.length > maxValues ? { hasMore: true } : {}),
      };
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      throw new CoreError(
        'request-failed',
        `Server "${this.context.server}" could not complete "${request.argument.name}" of ${describe(request.ref)}: ${messageOf(error)}`,
        {
          cause: error,
          data: { server: this.context.server, argument: request.argument.name, ...(typeof code === 'number' ? { rpcCode: code } : {}) },
        },
      );
    }
  }

  private client(request: CompletionRequest): Client {
    const server = this.context.server;
    const client = this.context.client();
    if (!client) {
      throw new CoreError('server-not-ready', `Server "${server}" is not connected, so it cannot suggest values for "${request.argument.name}" now.`, {
        data: { server },
      });
    }
    if (client.getServerCapabilities()?.completions === undefined) {
      throw new CoreError(
        'not-supported',
        `Server "${server}" does not offer argument completion (its capabilities have no "completions"), so there are no suggestions for "${request.argument.name}" of ${describe(request.ref)}; type the value.`,
        { data: { server, capability: 'completions' } },
      );
    }
    return client;
  }

  dispose(): void {}
}

function describe(ref: CompletionRef): string {
  return ref.type === 'prompt' ? `prompt "${ref.name}"` : `resource template "${ref.uri}"`;
}
