import { ProtocolError, SdkError, SdkErrorCode, type Client } from '@modelcontextprotocol/client';
import type { PingView, ServerHealth, StatusReason } from '../../../../src-shared/host-api';
import { CoreError, messageOf, type Explained } from '../../errors';
import type { ConnectedInfo, FeatureContext, SessionFeature } from './feature';

/**
 * Is the server there? `ping` on legacy-era servers, `server/discover` on 2026-07-28 ones (that era has no ping), on
 * demand (`servers:ping`) and, for remote servers, every `ping.intervalMs`. A periodic ping that goes unanswered
 * (timeout) or cannot be sent (the connection is gone) marks the server unhealthy and asks the supervisor to reconnect;
 * an error answer means the server is there, so it stays healthy (with the error shown).
 */
export class HealthFeature implements SessionFeature {
  readonly name = 'health' as const;
  private state: ServerHealth | undefined;
  private era: 'modern' | 'legacy' | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** Bumped on every connect and disconnect: a ping of an older session reports nothing. */
  private epoch = 0;
  private disposed = false;

  constructor(private readonly context: FeatureContext) {}

  connected(info: ConnectedInfo): void {
    this.epoch++;
    this.era = info.era;
    // The handshake was just answered: a failure recorded before this session no longer holds.
    if (this.state && !this.state.ok) this.set({ ok: true });
    if (this.context.remote) this.schedule();
  }

  disconnected(): void {
    this.epoch++;
    this.era = undefined;
    this.cancel();
  }

  /** One ping now; a failure is thrown (as a CoreError saying what happened) and recorded in the view. */
  async ping(): Promise<PingView> {
    const outcome = await this.probe();
    if (outcome.kind === 'answered') return outcome.view;
    const { server } = this.context;
    if (outcome.kind === 'not-connected')
      throw new CoreError('server-not-ready', `Server "${server}" is not connected; it cannot answer a ping now.`, { data: { server } });
    // An error answer: the server is there but refuses the method; no answer: it is not answering.
    const code = outcome.kind === 'error-answer' ? 'not-supported' : 'server-not-ready';
    throw new CoreError(code, outcome.message, { data: { server, method: outcome.method, outcome: outcome.kind } });
  }

  /** For ServerView.health. */
  view(): ServerHealth | undefined {
    return this.state;
  }

  /** `lost`: called (in the turn the view turns unhealthy, just before) when the ping went unanswered or could not be sent. */
  private async probe(
    lost?: (found: Explained) => void,
  ): Promise<
    | { kind: 'answered'; view: PingView }
    | { kind: 'not-connected' }
    | { kind: 'missed' | 'failed' | 'error-answer'; method: PingView['method']; message: string }
  > {
    const client = this.context.client();
    if (!client) return { kind: 'not-connected' };
    const epoch = this.epoch;
    const method: PingView['method'] = (this.era ?? client.getProtocolEra()) === 'modern' ? 'server/discover' : 'ping';
    const { server, ping } = this.context;
    const started = performance.now();
    try {
      await send(client, method, ping.timeoutMs);
      const ms = Math.round(performance.now() - started);
      if (epoch === this.epoch) this.set({ ok: true, lastPingMs: ms, lastPingAt: Date.now() });
      return { kind: 'answered', view: { server, method, ms } };
    } catch (error) {
      const at = Date.now();
      if (error instanceof ProtocolError) {
        // It answered (with an error): it is there.
        const message = `Server "${server}" answered ${method} with an error: ${messageOf(error)}`;
        const errorInfo: StatusReason = { code: 'ping-error-answer', data: { server, method, detail: messageOf(error) } };
        if (epoch === this.epoch) this.set({ ok: true, lastPingMs: Math.round(performance.now() - started), lastPingAt: at, error: message, errorInfo });
        return { kind: 'error-answer', method, message };
      }
      const missed = error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout;
      const message = missed
        ? `Server "${server}" did not answer ${method} within ${ping.timeoutMs} ms`
        : `Server "${server}" could not be pinged (${method}): ${messageOf(error)}`;
      const errorInfo: StatusReason = missed
        ? { code: 'ping-missed', data: { server, method, timeoutMs: ping.timeoutMs } }
        : { code: 'ping-failed', data: { server, method, detail: messageOf(error) } };
      if (epoch === this.epoch) {
        // The reconnect first, so that the view that turns unhealthy is already not ready (one servers:changed).
        lost?.({ text: message, reason: errorInfo });
        this.set({ ok: false, lastPingAt: at, error: message, errorInfo });
      }
      return { kind: missed ? 'missed' : 'failed', method, message };
    }
  }

  private schedule(): void {
    this.cancel();
    const { intervalMs } = this.context.ping;
    if (intervalMs <= 0 || this.disposed) return;
    const epoch = this.epoch;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.periodic(epoch);
    }, intervalMs);
    this.timer.unref?.();
  }

  private async periodic(epoch: number): Promise<void> {
    if (epoch !== this.epoch || this.disposed) return;
    const outcome = await this.probe((found) => {
      this.context.note(`[switchboard] health: ${found.text}`);
      this.context.unhealthy(`${found.text} (periodic health check)`, found);
    });
    if (epoch !== this.epoch || this.disposed || outcome.kind === 'missed' || outcome.kind === 'failed') return;
    this.schedule();
  }

  private set(state: ServerHealth): void {
    this.state = state;
    this.context.changed('health');
  }

  private cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  dispose(): void {
    this.disposed = true;
    this.epoch++;
    this.cancel();
  }
}

function send(client: Client, method: PingView['method'], timeout: number): Promise<unknown> {
  return method === 'ping' ? client.ping({ timeout }) : client.discover({ timeout });
}
