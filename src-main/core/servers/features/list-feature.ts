import { MAX_CACHE_TTL_MS, type Client, type ServerCapabilities, type SubscriptionFilter } from '@modelcontextprotocol/client';
import { Emitter } from '../../../../src-shared/lifecycle';
import { messageOf } from '../../errors';
import type { ConnectedInfo, FeatureContext, FeatureName, SessionFeature } from './feature';

export type ListChangedMethod = 'notifications/tools/list_changed' | 'notifications/prompts/list_changed' | 'notifications/resources/list_changed';
type ListenKey = 'toolsListChanged' | 'promptsListChanged' | 'resourcesListChanged';

/** How soon after a `list_changed` the list is fetched again (a burst of notifications is one fetch). */
export const listChangedDebounceMs = 50;

/**
 * The ttl of one load's list results (2026-07-28 `ttlMs`, SEP-2549): a list made of several results (resources and
 * their templates) is fresh for the shortest.
 */
export class CacheHints {
  private ttl: number | undefined;

  /** Notes one list result's `ttlMs` (missing or malformed: no hint). */
  note(result: object): void {
    const { ttlMs } = result as { ttlMs?: unknown };
    if (typeof ttlMs === 'number' && Number.isFinite(ttlMs)) this.ttl = Math.min(this.ttl ?? Infinity, Math.max(0, ttlMs));
  }

  get ttlMs(): number | undefined {
    return this.ttl;
  }
}

/**
 * A list a server offers (tools, resources, prompts): loaded on connect, cleared on disconnect, fetched again
 * (debounced) on its `list_changed` notification in either era, with the last load's error kept. Subclasses say
 * how to fetch it and whether the server offers it.
 *
 * Freshness (2026-07-28 list results' `ttlMs`): a list loaded with a positive ttl is not fetched again before it has
 * passed (a `list_changed` still refreshes it at once); after it, the next use (`settle`, `freshen`: a call, a
 * chat turn, a listing through the API) fetches it again and waits for it. A ttl of 0 or none (and every 2025-11-25
 * list) keeps the list until `list_changed`, as the spec allows ("MAY re-fetch"): re-listing every server on every
 * use would cost each chat step a round trip per server. `cacheScope` asks nothing of this host: its lists live in
 * memory per server connection (a new sign-in is a new connection, with its lists fetched anew), are never shared
 * with another connection or person and never persisted — what `private` requires and `public` allows.
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
  /** Every page; each list result's cache hints noted in `hints`. */
  protected abstract fetch(client: Client, timeoutMs: number, hints: CacheHints): Promise<T[]>;

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
  /** When the list as loaded stops being fresh (epoch ms); undefined: fresh until `list_changed`. */
  private freshUntil: number | undefined;

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
    this.freshUntil = undefined;
    const had = this.loaded.length > 0 || this.lastError !== undefined;
    this.loaded = [];
    this.lastError = undefined;
    if (had) this.announce();
  }

  /** Fetches the list now (the error, if any, is kept and rethrown). */
  async load(client: Client | undefined = this.context.client(), timeoutMs = this.context.requestTimeoutMs()): Promise<void> {
    if (!client) return;
    const epoch = this.epoch;
    // Counted from before the request (not from its answer): never fresher than the server allowed.
    const asked = Date.now();
    const hints = new CacheHints();
    try {
      const items = await this.fetch(client, timeoutMs, hints);
      if (epoch !== this.epoch || this.disposed) return;
      // Hints count on 2026-07-28 only: a 2025-11-25 result may carry such keys without the meaning.
      const ttl = client.getProtocolEra() === 'modern' ? hints.ttlMs : undefined;
      this.freshUntil = ttl !== undefined && ttl > 0 ? asked + Math.min(ttl, MAX_CACHE_TTL_MS) : undefined;
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

  /** Past its ttl (2026-07-28): the next use fetches it again. */
  protected get stale(): boolean {
    return this.freshUntil !== undefined && Date.now() >= this.freshUntil;
  }

  /** A use of the list: past its ttl, it is fetched again now (true: a fetch started or was running). */
  private refreshIfStale(): boolean {
    if (this.loading) return true;
    if (!this.stale || this.disposed || !this.context.client()) return false;
    this.freshUntil = undefined;
    this.cancelTimer();
    this.runRefresh();
    return true;
  }

  /** A use of the list (a chat turn about to offer it, a call): a list past its ttl is fetched again and waited for. */
  async freshen(): Promise<void> {
    if (this.refreshIfStale()) await this.settle();
  }

  /**
   * Resolves once the connect-time load is done and no refresh is scheduled or running (a caller about to refuse an
   * unknown name waits here); a list past its ttl is fetched again first.
   */
  async settle(): Promise<void> {
    await this.initial;
    this.refreshIfStale();
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
