import WebSocket from 'ws';
import type { BridgeMessage } from '../../src-shared/host-api';

export interface BridgeClient {
  /** Every frame received with its size in bytes, in order (empty unless opened with `record`). */
  frames: Array<{ bytes: number; message: BridgeMessage }>;
  /** Sends one call; resolves with the response frame that answers it. */
  call(channel: string, args: unknown[]): Promise<BridgeMessage>;
  close(): void;
}

/** A HostApi client over the headless bridge, as a renderer tab uses it; `url` is the server's (with its ?token=). */
export async function openBridge(url: string, { record = false }: { record?: boolean } = {}): Promise<BridgeClient> {
  const u = new URL(url);
  const ws = new WebSocket(`ws://${u.host}/bridge?token=${u.searchParams.get('token') ?? ''}`, { headers: { origin: u.origin } });
  const frames: BridgeClient['frames'] = [];
  const waiting = new Map<number, (m: BridgeMessage) => void>();
  ws.on('message', (data: Buffer) => {
    const message = JSON.parse(data.toString('utf8')) as BridgeMessage;
    if (record) frames.push({ bytes: data.length, message });
    if (message.kind === 'response') waiting.get(message.id)?.(message);
  });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  let next = 1;
  return {
    frames,
    call: (channel, args) =>
      new Promise((resolve) => {
        const id = next++;
        waiting.set(id, resolve);
        ws.send(JSON.stringify({ id, channel, args }));
      }),
    close: () => ws.close(),
  };
}
