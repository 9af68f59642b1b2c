import type { HostEventName, HostEvents, Unsubscribe } from '../../../src-shared/host-api';
import { Emitter, type Disposable } from '../../../src-shared/lifecycle';

/** The host's events: every service emits here, every face (IPC, bridge, CLI) listens here. */
export class HostEventBus implements Disposable {
  private readonly emitters = new Map<HostEventName, Emitter<never>>();

  constructor(private readonly onListenerError: (error: unknown) => void = () => undefined) {}

  private emitter<E extends HostEventName>(event: E): Emitter<HostEvents[E]> {
    let emitter = this.emitters.get(event) as Emitter<HostEvents[E]> | undefined;
    if (!emitter) {
      emitter = new Emitter<HostEvents[E]>(this.onListenerError);
      this.emitters.set(event, emitter as unknown as Emitter<never>);
    }
    return emitter;
  }

  readonly emit = <E extends HostEventName>(event: E, payload: HostEvents[E]): void => {
    this.emitters.get(event)?.fire(payload as never);
  };

  readonly on = <E extends HostEventName>(event: E, listener: (payload: HostEvents[E]) => void): Unsubscribe => {
    const subscription = this.emitter(event).event(listener);
    return () => subscription.dispose();
  };

  dispose(): void {
    for (const emitter of this.emitters.values()) emitter.dispose();
    this.emitters.clear();
  }
}
