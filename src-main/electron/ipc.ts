import { ipcMain, type BrowserWindow, type IpcMainInvokeEvent } from 'electron';
import { hostChannelNames, hostEventNames, type Envelope, type HostApi, type HostChannel } from '../../src-shared/host-api';
import { DisposableStore, toDisposable } from '../../src-shared/lifecycle';
import { invokeChannel } from './envelope';

export interface IpcGatewayOptions {
  api: HostApi;
  /** The one window allowed to call; null while none is open. */
  window: () => BrowserWindow | null;
  /** Whether a frame URL is our renderer (see locations.ts). */
  isRendererUrl: (url: string) => boolean;
  log?: (line: string) => void;
}

/**
 * The single IPC gateway: one `ipcMain.handle` per contract channel, each checking who is calling and what it
 * sent before any work is done, and every host event forwarded to the window. `register()` and `dispose()`
 * are idempotent.
 */
export class IpcGateway {
  private registered = false;
  private disposed = false;
  private readonly subscriptions = new DisposableStore();
  private readonly log: (line: string) => void;

  constructor(private readonly options: IpcGatewayOptions) {
    this.log = options.log ?? ((line) => console.error(`[switchboard:ipc] ${line}`));
  }

  register(): void {
    if (this.registered || this.disposed) return;
    this.registered = true;
    for (const channel of hostChannelNames) {
      // A handler left by an earlier gateway would make `handle` throw: replace it.
      ipcMain.removeHandler(channel);
      ipcMain.handle(channel, (event, ...args: unknown[]) => this.handle(channel, event, args));
    }
    for (const name of hostEventNames) {
      this.subscriptions.add(toDisposable(this.options.api.on(name, (payload) => this.send(name, payload))));
    }
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (!this.registered) return;
    for (const channel of hostChannelNames) ipcMain.removeHandler(channel);
    try {
      this.subscriptions.dispose();
    } catch (error) {
      this.log(`unsubscribe failed: ${String(error)}`);
    }
  }

  private async handle(channel: HostChannel, event: IpcMainInvokeEvent, args: unknown[]): Promise<Envelope<unknown>> {
    const rejection = this.checkSender(event);
    if (rejection) {
      this.log(`rejected ${channel}: ${rejection}`);
      return { ok: false, error: { code: 'internal', message: `Refused: ${rejection}` } };
    }
    if (this.disposed) return { ok: false, error: { code: 'internal', message: 'Switchboard is shutting down' } };
    return invokeChannel(this.options.api, channel, args, this.log);
  }

  /** Why `event` may not call us, or undefined if it may: only our window's top frame, showing our renderer. */
  private checkSender(event: IpcMainInvokeEvent): string | undefined {
    const window = this.options.window();
    if (!window || window.isDestroyed()) return 'no window is open';
    const contents = window.webContents;
    if (event.sender !== contents) return 'sender is not the Switchboard window';
    const frame = event.senderFrame;
    if (!frame) return 'sender frame is gone';
    const top = contents.mainFrame;
    if (frame.parent !== null || frame.processId !== top.processId || frame.routingId !== top.routingId) {
      return 'sender is not the top frame';
    }
    if (!this.options.isRendererUrl(frame.url)) return `sender URL is not the renderer (${frame.url})`;
    return undefined;
  }

  private send(name: string, payload: unknown): void {
    if (this.disposed) return;
    const window = this.options.window();
    if (!window || window.isDestroyed() || window.webContents.isDestroyed()) return;
    window.webContents.send(name, payload);
  }
}
