import type { HostMethods } from '../../../src-shared/host-api';
import type { RequestAnswer } from '../../../src-shared/contract/requests';
import type { Disposable } from '../../../src-shared/lifecycle';
import type { RequestQueue } from '../requests/queue';
import type { HostEventBus } from './events';

export type RequestsChannel = 'requests:list' | 'requests:answer';

/** The queue of things a person must answer, as channels and the `requests:changed` event. */
export class RequestsService implements Disposable {
  readonly api: Pick<HostMethods, RequestsChannel>;
  private readonly subscription: Disposable;

  constructor(queue: RequestQueue, events: HostEventBus) {
    this.api = {
      'requests:list': async () => queue.list(),
      'requests:answer': async (id, answer) => queue.answer(id, answer as RequestAnswer),
    };
    this.subscription = queue.onDidChange((change) => events.emit('requests:changed', change));
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
