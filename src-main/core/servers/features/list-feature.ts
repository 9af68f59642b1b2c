import type { Client, ServerCapabilities, SubscriptionFilter } from '@modelcontextprotocol/client';
import { Emitter } from '../../../../src-shared/lifecycle';
import { messageOf } from '../../errors';
import type { ConnectedInfo, FeatureContext, FeatureName, SessionFeature } from './feature';

export type ListChangedMethod = 'notifications/tools/list_changed' | 'notifications/prompts/list_changed' | 'notifications/resources/list_changed';
type ListenKey = 'toolsListChanged' | 'promptsListChanged' | 'resourcesListChanged';

/** How soon after a `list_changed` the list is fetched again (a burst of notifications is one fetch). */
export const listChangedDebounceMs = 50;

/**
 * A list a server offers (tools, resources, prompts): loaded on connect, cleared on disconnect, fetched again
 * (debounced) on its `list_changed` notification in either era, with the last load's error kept. Subclasses say
 * how to fetch it and whether the server offers it.
 */
export abstract class ListFeature<T> implements SessionFeature {
  abstract readonly name: FeatureName;
  readonly blocking: boolean = false;
  protected abstract readonly changedMethod: ListChangedMethod;
  protected abstract readonly listenKey: ListenKey;
  /** Whether the server offers this list at all (else it stays empty, without an error). */
  protected abstract offered(capabilities: ServerCapabilities | undefined): boolean;
  /** Whether the server says it sends `list_changed` (a 2026-07-28 listen filter asks only for those). */
  protected abstract announcesChanges(capabilities: ServerCapabilities | undefined): boolean;
  /** Every page. */
  protected abstract fetch(client: Client, timeoutMs: number): Promise<T[]>;

  private loaded: T[] = [];
  private lastError: string | undefined;
  private epoch = 0;
  private timer: NodeJS.Timeout | undefined;
  private loading: Promise<void> | undefined;
  private again = false;
  /** The current session's connect-time load (never rejects); undefined while not connected. */
  private initial: Promise<void> | undefined;
  private isKnown = false;
  private readonly changes = new Emitter<void>();
  /** Fires after each reload or clear. */
  readonly onDidChange = this.changes.event;
  private disposed = false;

  constructor(protected readonly context: FeatureContext) {}

  /** The list as last loaded. Replaced, never changed in place: the same array until the next load (the servers delta compares by identity). */
  get items(): T[] {
    return this.loaded;
  }

  /** Whether the current session's list is known (loaded, or not offered): false before that and after a disconnect. */
  get known(): boolean {
    return this.isKnown;
  }

  /** The last load's failure, until a load succeeds. */
  get error(): string | undefined {
    return this.lastError;
  }

  attach(client: Client): void {
    client.setNotificationHandler(this.changedMethod, () => this.scheduleRefresh());
  }

  async connected(info: ConnectedInfo): Promise<void> {
    if (!this.offered(info.capabilities)) {
      this.isKnown = true;
      return;
    }
    const load = this.load(info.client, info.timeoutMs);
    this.initial = load.then(
      () => undefined,
      () => undefined,
    );
    if (this.blocking) await load;
    else await this.initial;
  }

  listenFilter(info: ConnectedInfo): SubscriptionFilter {
    return this.announcesChanges(info.capabilities) ? { [this.listenKey]: true } : {};
  }

  disconnected(): void {
    this.epoch++;
    this.cancelTimer();
    this.again = false;
    this.initial = undefined;
    this.isKnown = false;
    const had = this.loaded.length > 0 || this.lastError !== undefined;
    this.loaded = [];
    this.lastError = undefined;
    if (had) this.announce();
  }

  /** Fetches the list now (the error, if any, is kept and rethrown). */
  async load(client: Client | undefined = this.context.client(), timeoutMs = this.context.requestTimeoutMs()): Promise<void> {
    if (!client) return;
    const epoch = this.epoch;
    try {
      const items = await this.fetch(client, timeoutMs);
      if (epoch !== this.epoch || this.disposed) return;
      this.loaded = items;
      this.lastError = undefined;
      this.isKnown = true;
      this.announce();
    } catch (error) {
      if (epoch !== this.epoch || this.disposed) throw error;
      this.lastError = messageOf(error);
      this.context.note(`[switchboard] listing ${this.name} failed: ${this.lastError}`);
      this.announce();
      throw error;
    }
  }

  /** The same list, re-derived (a review decision changed its items): a new array, announced. */
  protected replaceItems(items: T[]): void {
    if (this.disposed || !this.isKnown) return;
    this.loaded = items;
    this.announce();
  }

  /** A `list_changed` arrived: fetch again soon (once per burst; again after a fetch in flight). */
  scheduleRefresh(): void {
    if (this.disposed) return;
    if (this.loading) {
      this.again = true;
      return;
    }
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.runRefresh();
    }, listChangedDebounceMs);
  }

  private runRefresh(): void {
    this.loading = this.load()
      .catch(() => undefined)
      .finally(() => {
        this.loading = undefined;
        if (this.again) {
          this.again = false;
          this.scheduleRefresh();
        }
      });
  }

  /** Resolves once the connect-time load is done and no refresh is scheduled or running (a caller about to refuse an unknown name waits here). */
  async settle(): Promise<void> {
    await this.initial;
    for (let i = 0; i < 5 && (this.timer || this.loading); i++) {
      if (this.timer) {
        this.cancelTimer();
        this.runRefresh();
      }
      await this.loading;
    }
  }

  private announce(): void {
    this.changes.fire();
    this.context.changed(this.name);
  }

  private cancelTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.epoch++;
    this.cancelTimer();
    this.changes.dispose();
  }
}
