import { PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';

/**
 * The bridge's transport to one app frame, bound to the sandbox proxy's origin both ways: messages are posted with
 * that origin as the target (never "*": if the frame were navigated elsewhere, nothing reaches the new page), and a
 * message from the frame's window on any other origin is dropped before the bridge sees it (PostMessageTransport
 * itself checks only the source window).
 */
export class SandboxTransport extends PostMessageTransport {
  private readonly gate: (event: MessageEvent) => void;

  constructor(
    private readonly target: Window,
    private readonly origin: string,
  ) {
    super(target, target);
    this.gate = (event) => {
      if (event.source === this.target && event.origin !== this.origin) event.stopImmediatePropagation();
    };
  }

  override async start(): Promise<void> {
    // Capture phase, registered first: runs before the transport's own listener.
    window.addEventListener('message', this.gate, true);
    await super.start();
  }

  override async send(message: JSONRPCMessage): Promise<void> {
    this.target.postMessage(message, this.origin);
    return Promise.resolve();
  }

  override async close(): Promise<void> {
    window.removeEventListener('message', this.gate, true);
    await super.close();
  }
}
