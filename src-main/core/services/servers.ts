import type { HostMethods } from '../../../src-shared/host-api';
import { DisposableStore, type Disposable } from '../../../src-shared/lifecycle';
import { ServersDiffer } from '../../../src-shared/servers-delta';
import type { ServerFleet } from '../servers/fleet';
import type { HostEventBus } from './events';

export type ServersChannel = 'servers:list' | 'servers:restart' | 'servers:ping';

/**
 * The servers' status as the UI sees it: `servers:list`, restart, ping, and the `servers:changed` deltas (bursts
 * coalesced into at most one per 50 ms, carrying only what changed per server, so that a stderr line does not
 * resend 10,000 tools to every tab) and `features:changed`.
 */
export class ServersService implements Disposable {
  readonly api: Pick<HostMethods, ServersChannel>;
  private pendingTimer: NodeJS.Timeout | undefined;
  private readonly differ = new ServersDiffer();
  private disposed = false;
  private readonly subscriptions = new DisposableStore();

  constructor(
    private readonly fleet: ServerFleet,
    private readonly events: HostEventBus,
  ) {
    this.subscriptions.add(fleet.onChanged(() => this.schedule()));
    this.subscriptions.add(
      fleet.onFeature(({ server, feature }) => {
        // A list reloaded on a ready server (list_changed) is news the UI waits for, a tool that just appeared: sent
        // now, not at the window's end. (During a start the list goes out with the ready status, as one change.)
        if (fleet.isReady(server)) this.flush();
        if (feature === 'resources' || feature === 'prompts' || feature === 'skills') events.emit('features:changed', { server, feature });
      }),
    );
    this.api = {
      'servers:list': async () => fleet.views(),
      'servers:restart': async (name) => {
        await fleet.get(name).restart();
      },
      'servers:ping': async (name) => {
        const supervisor = fleet.get(name);
        supervisor.requireReady('answer a ping');
        return supervisor.features.health.ping();
      },
    };
  }

  private schedule(): void {
    if (this.pendingTimer || this.disposed) return;
    this.pendingTimer = setTimeout(() => this.flush(), 50);
  }

  /** Sends what changed since the last `servers:changed`, now. */
  private flush(): void {
    if (this.pendingTimer) clearTimeout(this.pendingTimer);
    this.pendingTimer = undefined;
    if (this.disposed) return;
    const delta = this.differ.next(this.fleet.views());
    if (delta) this.events.emit('servers:changed', delta);
  }

  dispose(): void {
    this.disposed = true;
    this.subscriptions.dispose();
    if (this.pendingTimer) clearTimeout(this.pendingTimer);
    this.pendingTimer = undefined;
  }
}
