import { randomUUID } from 'node:crypto';
import { callToolRequestSchema } from '../../../src-shared/host-schemas';
import type { HostMethods } from '../../../src-shared/host-api';
import type { Disposable } from '../../../src-shared/lifecycle';
import type { Registry } from '../registry';

export type ToolsChannel = 'tools:call' | 'tools:cancel';

/** Tool calls from the UI and the CLI, each cancellable by its `callId` (which also keys `calls:progress`). */
export class ToolsService implements Disposable {
  readonly api: Pick<HostMethods, ToolsChannel>;
  private readonly inFlight = new Map<string, AbortController>();

  constructor(registry: Registry) {
    this.api = {
      'tools:call': async (request) => {
        const { server, tool, args, callId = randomUUID(), task } = callToolRequestSchema.parse(request);
        const supervisor = registry.get(server);
        const controller = new AbortController();
        this.inFlight.set(callId, controller);
        try {
          return await supervisor.callTool(tool, args, { signal: controller.signal, callId, ...(task !== undefined ? { task } : {}) });
        } finally {
          if (this.inFlight.get(callId) === controller) this.inFlight.delete(callId);
        }
      },
      'tools:cancel': async (callId) => {
        const controller = this.inFlight.get(callId);
        if (!controller) return false;
        controller.abort(new Error('Cancelled by the user'));
        this.inFlight.delete(callId);
        return true;
      },
    };
  }

  dispose(): void {
    for (const controller of this.inFlight.values()) controller.abort(new Error('Switchboard is shutting down'));
    this.inFlight.clear();
  }
}
