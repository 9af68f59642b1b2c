import type { Client } from '@modelcontextprotocol/client';
import { messageOf } from '../../errors';
import type { RootView } from '../../config/resolve';
import type { ConnectedInfo, FeatureContext, SessionFeature } from './feature';

function sameRoots(a: readonly RootView[], b: readonly RootView[]): boolean {
  return a.length === b.length && a.every((r, i) => r.uri === b[i]?.uri && r.name === b[i]?.name);
}

/**
 * `roots/list` answers the server entry's roots (or the settings' default); `notifications/roots/list_changed` is
 * sent when they change while the session is connected (a config edit that touches only `roots` restarts nothing).
 */
export class RootsFeature implements SessionFeature {
  readonly name = 'roots' as const;
  private sent: readonly RootView[] = [];

  constructor(private readonly context: FeatureContext) {}

  private current(): readonly RootView[] {
    return this.context.roots?.() ?? [];
  }

  attach(client: Client): void {
    client.registerCapabilities({ roots: { listChanged: true } });
    client.setRequestHandler('roots/list', () => {
      const roots = this.current();
      this.sent = roots;
      return { roots: roots.map((r) => ({ ...r })) };
    });
  }

  connected(_info: ConnectedInfo): void {
    this.sent = this.current();
  }

  /** The configured roots may have changed: tell the connected server (once per change). */
  async changed(): Promise<void> {
    const roots = this.current();
    if (sameRoots(roots, this.sent)) return;
    this.sent = roots;
    const client = this.context.client();
    if (!client) return;
    // 2026-07-28 servers ask for the roots within each request that needs them (input_required): nothing to send.
    if (client.getProtocolEra() === 'modern') {
      this.context.log(`[switchboard] roots changed (${roots.length}); the server gets them with its next request`);
      return;
    }
    try {
      await client.sendRootsListChanged();
      this.context.log(`[switchboard] roots changed (${roots.length}); sent notifications/roots/list_changed`);
    } catch (error) {
      this.context.note(`[switchboard] could not tell the server its roots changed: ${messageOf(error)}`);
    }
  }

  dispose(): void {
    this.sent = [];
  }
}
