import type { Client, McpSubscription, ServerCapabilities } from '@modelcontextprotocol/client';
import type { ReadResourceView, ResourceContents, ResourceInfo, ResourceListView, ResourceTemplateInfo } from '../../../../src-shared/host-api';
import { Emitter } from '../../../../src-shared/lifecycle';
import { CoreError, messageOf } from '../../errors';
import type { ConnectedInfo } from './feature';
import { ListFeature, type CacheHints } from './list-feature';

/** One item of the list: a resource or a template (one list, so that both are replaced together). */
export type ResourceEntry = { kind: 'resource'; info: ResourceInfo } | { kind: 'template'; info: ResourceTemplateInfo };

/**
 * Resources: `resources/list` and `resources/templates/list` (every page), re-listed on `resources/list_changed`
 * in both eras; `resources/read`; live updates of subscribed URIs. The subscribed set lives as long as the
 * server's supervisor and is subscribed again on every connect. Legacy servers: `resources/subscribe` /
 * `unsubscribe` and `notifications/resources/updated`. 2026-07-28 servers: a `subscriptions/listen` stream of
 * this feature's own whose filter is `resourceSubscriptions` (opened again, new before old, whenever the set
 * changes; the session's own stream, fixed at connect, carries the list changes).
 */
export class ResourcesFeature extends ListFeature<ResourceEntry> {
  readonly name = 'resources' as const;
  protected readonly changedMethod = 'notifications/resources/list_changed' as const;
  protected readonly listenKey = 'resourcesListChanged' as const;

  private readonly subscribed = new Set<string>();
  private info: ConnectedInfo | undefined;
  /** The 2026-07-28 stream carrying resource updates, and the serialised chain of its re-openings. */
  private stream: McpSubscription | undefined;
  private streamChain: Promise<unknown> = Promise.resolve();
  /** Bumped on every connect and disconnect: work begun for an earlier session drops its result. */
  private generation = 0;
  private split: { of: ResourceEntry[]; resources: ResourceInfo[]; templates: ResourceTemplateInfo[] } | undefined;
  private readonly serverChanges = new Emitter<string | undefined>();
  /** The server said its resources changed: the list (undefined), or one URI (subscribed or not). MCP Apps read again on it. */
  readonly onServerChange = this.serverChanges.event;

  protected offered(capabilities: ServerCapabilities | undefined): boolean {
    return capabilities?.resources !== undefined;
  }

  protected announcesChanges(capabilities: ServerCapabilities | undefined): boolean {
    return capabilities?.resources?.listChanged === true;
  }

  protected async fetch(client: Client, timeoutMs: number, hints: CacheHints): Promise<ResourceEntry[]> {
    // No cursor: the SDK walks every page (up to its listMaxPages) and aggregates them.
    const [listed, templates] = await Promise.all([
      client.listResources(undefined, { timeout: timeoutMs, cacheMode: 'refresh' }),
      client.listResourceTemplates(undefined, { timeout: timeoutMs, cacheMode: 'refresh' }).catch((error: unknown) => {
        // A server that offers resources but no templates may answer Method not found: that is an empty list.
        if ((error as { code?: unknown }).code === -32601) return { resourceTemplates: [] };
        throw error;
      }),
    ]);
    hints.note(listed);
    hints.note(templates);
    return [
      ...listed.resources.map((r): ResourceEntry => ({ kind: 'resource', info: resourceInfo(r) })),
      ...templates.resourceTemplates.map((t): ResourceEntry => ({ kind: 'template', info: templateInfo(t) })),
    ];
  }

  override attach(client: Client): void {
    super.attach(client);
    client.setNotificationHandler(this.changedMethod, () => {
      this.scheduleRefresh();
      this.serverChanges.fire(undefined);
    });
    client.setNotificationHandler('notifications/resources/updated', (notification) => {
      const uri = notification.params.uri;
      this.serverChanges.fire(uri);
      // Only what this host asked for (an update racing an unsubscribe, or a server that sends unasked, is dropped).
      if (this.subscribed.has(uri)) this.context.emit('resources:updated', { server: this.context.server, uri });
    });
  }

  override async connected(info: ConnectedInfo): Promise<void> {
    const generation = ++this.generation;
    this.info = info;
    await super.connected(info);
    if (generation !== this.generation || this.subscribed.size === 0 || !this.offered(info.capabilities)) return;
    // Subscribed again after a reconnect (a new process or HTTP session knows nothing of the old one's).
    if (info.era === 'modern') {
      await this.relisten().catch((error: unknown) => this.context.note(`[switchboard] could not subscribe to resource updates again: ${messageOf(error)}`));
      return;
    }
    if (info.capabilities?.resources?.subscribe !== true) return;
    for (const uri of this.subscribed) {
      await info.client
        .subscribeResource({ uri }, { timeout: this.context.requestTimeoutMs() })
        .catch((error: unknown) => this.context.note(`[switchboard] could not subscribe to ${uri} again: ${messageOf(error)}`));
    }
  }

  override disconnected(): void {
    this.generation++;
    this.info = undefined;
    const stream = this.stream;
    this.stream = undefined;
    // The session is closing its client, which ends the stream; this only stops the SDK's bookkeeping.
    if (stream) void stream.close().catch(() => undefined);
    super.disconnected();
  }

  /** Every resource and template (waits for a load or refresh in flight). */
  async list(): Promise<ResourceListView> {
    await this.settle();
    const { resources, templates } = this.parts();
    return {
      server: this.context.server,
      resources,
      templates,
      subscribed: [...this.subscribed],
      canSubscribe: this.info !== undefined && this.canSubscribe(this.info),
      ...(this.error !== undefined ? { error: this.error } : {}),
    };
  }

  async read(uri: string): Promise<ReadResourceView> {
    const client = this.ready('read', uri);
    try {
      const result = await client.readResource({ uri }, { timeout: this.context.requestTimeoutMs(), cacheMode: 'bypass' });
      return { contents: result.contents.map(contentsView) };
    } catch (error) {
      throw this.failed('read', uri, error);
    }
  }

  async subscribe(uri: string): Promise<void> {
    const client = this.ready('subscribe to', uri);
    const info = this.info;
    if (!info || !this.canSubscribe(info)) {
      throw new CoreError(
        'not-supported',
        `Server "${this.context.server}" does not offer resource subscriptions (its "resources" capability has no "subscribe"), so "${uri}" cannot be watched. Read it again to see changes.`,
        { data: { server: this.context.server, uri, capability: 'resources.subscribe' } },
      );
    }
    if (this.subscribed.has(uri)) return;
    this.subscribed.add(uri);
    try {
      if (info.era === 'modern') {
        const stream = await this.relisten();
        const honored = stream?.honoredFilter.resourceSubscriptions ?? [];
        if (stream && !honored.includes(uri)) {
          throw new Error(`it did not accept "${uri}" on its subscriptions/listen stream (it honoured: ${honored.join(', ') || 'none'})`);
        }
      } else {
        await client.subscribeResource({ uri }, { timeout: this.context.requestTimeoutMs() });
      }
    } catch (error) {
      this.subscribed.delete(uri);
      if (info.era === 'modern') void this.relisten().catch(() => undefined);
      throw this.failed('subscribe to', uri, error);
    }
  }

  async unsubscribe(uri: string): Promise<void> {
    if (!this.subscribed.delete(uri)) return;
    // Forgotten here first (no more events reach the host), then the server is told.
    const client = this.context.client();
    const info = this.info;
    if (!client || !info) return;
    try {
      if (info.era === 'modern') await this.relisten();
      else await client.unsubscribeResource({ uri }, { timeout: this.context.requestTimeoutMs() });
    } catch (error) {
      throw this.failed('unsubscribe from', uri, error);
    }
  }

  /** For ServerView.counts; undefined until the current session's list is known. */
  counts(): { resources: number; templates: number } | undefined {
    if (!this.known) return undefined;
    const { resources, templates } = this.parts();
    return { resources: resources.length, templates: templates.length };
  }

  /** A listed resource's name (for chat attachments); waits for a load in flight. */
  async nameOf(uri: string): Promise<string | undefined> {
    return (await this.list()).resources.find((r) => r.uri === uri)?.name;
  }

  /** The URIs subscribed to (kept across restarts). */
  subscriptions(): string[] {
    return [...this.subscribed];
  }

  override dispose(): void {
    this.generation++;
    const stream = this.stream;
    this.stream = undefined;
    if (stream) void stream.close().catch(() => undefined);
    super.dispose();
  }

  private canSubscribe(info: ConnectedInfo): boolean {
    if (!this.offered(info.capabilities)) return false;
    // 2026-07-28: `subscriptions/listen` is part of the protocol; the server's acknowledgement says what it honours.
    return info.era === 'modern' || info.capabilities?.resources?.subscribe === true;
  }

  /** Opens the update stream for the current set (new before old, so no update falls between), or closes it. */
  private relisten(): Promise<McpSubscription | undefined> {
    const run = async (): Promise<McpSubscription | undefined> => {
      const generation = this.generation;
      const client = this.context.client();
      if (!client || this.info?.era !== 'modern') return undefined;
      const uris = [...this.subscribed];
      const next = uris.length > 0 ? await client.listen({ resourceSubscriptions: uris }, { timeout: this.context.requestTimeoutMs() }) : undefined;
      if (generation !== this.generation) {
        if (next) await next.close().catch(() => undefined);
        return undefined;
      }
      const old = this.stream;
      this.stream = next;
      if (next) void next.closed.then((how) => this.streamEnded(next, how));
      if (old) await old.close().catch(() => undefined);
      return next;
    };
    const result = this.streamChain.then(run, run);
    this.streamChain = result.catch(() => undefined);
    return result;
  }

  private streamEnded(stream: McpSubscription, how: 'local' | 'graceful' | 'remote'): void {
    if (how === 'local' || this.stream !== stream) return;
    this.stream = undefined;
    this.context.note(
      `[switchboard] the server ended the resource-updates stream (${how}); subscribed resources stay unwatched until they are subscribed again or the server restarts`,
    );
  }

  private ready(action: string, uri: string): Client {
    const client = this.context.client();
    const server = this.context.server;
    if (!client || !this.info) {
      throw new CoreError(
        'server-not-ready',
        `Server "${server}" is not connected, so Switchboard cannot ${action} "${uri}" now. Start it (or wait until it is ready) and try again.`,
        {
          data: { server, uri },
        },
      );
    }
    if (!this.offered(this.info.capabilities)) {
      throw new CoreError(
        'not-supported',
        `Server "${server}" does not offer resources (its capabilities have no "resources"), so Switchboard cannot ${action} "${uri}".`,
        {
          data: { server, uri, capability: 'resources' },
        },
      );
    }
    return client;
  }

  private failed(action: string, uri: string, error: unknown): CoreError {
    if (error instanceof CoreError) return error;
    const code = (error as { code?: unknown }).code;
    return new CoreError('request-failed', `Server "${this.context.server}" could not ${action} "${uri}": ${messageOf(error)}`, {
      cause: error,
      data: { server: this.context.server, uri, ...(typeof code === 'number' ? { rpcCode: code } : {}) },
    });
  }

  private parts(): { resources: ResourceInfo[]; templates: ResourceTemplateInfo[] } {
    const items = this.items;
    if (this.split?.of !== items) {
      const resources: ResourceInfo[] = [];
      const templates: ResourceTemplateInfo[] = [];
      for (const entry of items) {
        if (entry.kind === 'resource') resources.push(entry.info);
        else templates.push(entry.info);
      }
      this.split = { of: items, resources, templates };
    }
    return this.split;
  }
}

interface Described {
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: unknown;
}

function described(item: Described): Omit<ResourceInfo, 'uri' | 'size'> {
  return {
    name: item.name,
    ...(item.title !== undefined ? { title: item.title } : {}),
    ...(item.description !== undefined ? { description: item.description } : {}),
    ...(item.mimeType !== undefined ? { mimeType: item.mimeType } : {}),
    ...(item.annotations !== undefined && typeof item.annotations === 'object' && item.annotations !== null
      ? { annotations: item.annotations as Record<string, unknown> }
      : {}),
  };
}

export function resourceInfo(resource: Described & { uri: string; size?: number }): ResourceInfo {
  return { uri: resource.uri, ...described(resource), ...(typeof resource.size === 'number' ? { size: resource.size } : {}) };
}

export function templateInfo(template: Described & { uriTemplate: string }): ResourceTemplateInfo {
  return { uriTemplate: template.uriTemplate, ...described(template) };
}

function contentsView(contents: { uri: string; mimeType?: string; text?: unknown; blob?: unknown }): ResourceContents {
  return {
    uri: contents.uri,
    ...(contents.mimeType !== undefined ? { mimeType: contents.mimeType } : {}),
    ...(typeof contents.text === 'string' ? { text: contents.text } : {}),
    ...(typeof contents.blob === 'string' ? { blob: contents.blob } : {}),
  };
}
