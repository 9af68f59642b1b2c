import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { BridgeMessage } from '../../src-shared/host-api';
import { calculatorPath } from '../core/support/paths';
import { alive, pidsWith, tempDir, waitFor } from '../test-support/processes';

/*
 * One malformed WebSocket frame must end that connection only. The host runs as `switchboard serve` in a child
 * process, as users run it, so an 'error' event nobody handles would end that process (and the test sees it).
 */

interface Frame {
  opcode: number;
  payload?: Buffer;
  fin?: boolean;
  rsv1?: boolean;
  masked?: boolean;
  /** Announce this length instead of the payload's (for a frame over maxPayload). */
  announcedLength?: number;
}

function encode(frame: Frame): Buffer {
  const payload = frame.payload ?? Buffer.alloc(0);
  const length = frame.announcedLength ?? payload.length;
  const masked = frame.masked ?? true;
  const head: number[] = [(frame.fin === false ? 0 : 0x80) | (frame.rsv1 ? 0x40 : 0) | frame.opcode];
  const maskBit = masked ? 0x80 : 0;
  let extended = Buffer.alloc(0);
  if (length < 126) head.push(maskBit | length);
  else if (length < 65536) {
    head.push(maskBit | 126);
    extended = Buffer.alloc(2);
    extended.writeUInt16BE(length);
  } else {
    head.push(maskBit | 127);
    extended = Buffer.alloc(8);
    extended.writeBigUInt64BE(BigInt(length));
  }
  if (!masked) return Buffer.concat([Buffer.from(head), extended, payload]);
  const mask = randomBytes(4);
  const body = Buffer.from(payload.map((byte, i) => byte ^ (mask[i % 4] ?? 0)));
  return Buffer.concat([Buffer.from(head), extended, mask, body]);
}

/** A raw TCP socket that has completed a valid bridge handshake (token and Origin). */
async function rawBridge(url: URL): Promise<Socket> {
  const socket = connect(Number(url.port), '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  socket.write(
    [
      `GET /bridge?token=${url.searchParams.get('token') ?? ''} HTTP/1.1`,
      `Host: ${url.host}`,
      `Origin: ${url.origin}`,
      'Upgrade: websocket',
      'Connection: Upgrade',
      `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
      'Sec-WebSocket-Version: 13',
      '',
      '',
    ].join('\r\n'),
  );
  const head = await new Promise<string>((resolve, reject) => {
    let text = '';
    const onData = (chunk: Buffer): void => {
      text += chunk.toString('latin1');
      if (text.includes('\r\n\r\n')) {
        socket.off('data', onData);
        resolve(text);
      }
    };
    socket.on('data', onData);
    socket.once('error', reject);
  });
  expect(head.split('\r\n')[0]).toBe('HTTP/1.1 101 Switching Protocols');
  // A reset shows up as 'close' (which the tests check); an unhandled 'error' would end the test process.
  socket.on('error', () => undefined);
  return socket;
}

/** Resolves with what the server sent before it closed the connection (a close frame, when it sends one). */
function closedByServer(socket: Socket): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.once('close', () => resolve(Buffer.concat(chunks)));
  });
}

/** The server's frames (unmasked) in `bytes`, in order. */
function framesIn(bytes: Buffer): Array<{ opcode: number; payload: Buffer }> {
  const frames: Array<{ opcode: number; payload: Buffer }> = [];
  let at = 0;
  while (at + 2 <= bytes.length) {
    const opcode = (bytes[at] ?? 0) & 0x0f;
    let length = (bytes[at + 1] ?? 0) & 0x7f;
    let start = at + 2;
    if (length === 126) {
      length = bytes.readUInt16BE(start);
      start += 2;
    } else if (length === 127) {
      length = Number(bytes.readBigUInt64BE(start));
      start += 8;
    }
    if (start + length > bytes.length) break;
    frames.push({ opcode, payload: bytes.subarray(start, start + length) });
    at = start + length;
  }
  return frames;
}

/** The close code of the close frame in `bytes`, if the server sent one. */
function closeCodeIn(bytes: Buffer): number | undefined {
  const close = framesIn(bytes).find((f) => f.opcode === 0x8);
  return close && close.payload.length >= 2 ? close.payload.readUInt16BE(0) : undefined;
}

async function callAppInfo(url: URL): Promise<BridgeMessage> {
  const ws = new WebSocket(`ws://${url.host}/bridge?token=${url.searchParams.get('token') ?? ''}`, { headers: { origin: url.origin } });
  try {
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    return await new Promise<BridgeMessage>((resolve) => {
      // Events may come first (the host pushes what changed as it happens); the answer is the response.
      const onMessage = (data: unknown): void => {
        const message = JSON.parse(String(data)) as BridgeMessage;
        if (message.kind !== 'response') return;
        ws.off('message', onMessage);
        resolve(message);
      };
      ws.on('message', onMessage);
      ws.send(JSON.stringify({ id: 1, channel: 'app:info', args: [] }));
    });
  } finally {
    ws.close();
  }
}

const maxPayload = 16 * 1024 * 1024;
const cases: Array<{ name: string; frame: Frame; code: number }> = [
  { name: 'an unmasked frame', frame: { opcode: 0x1, payload: Buffer.from('{"id":1}'), masked: false }, code: 1002 },
  { name: 'a reserved opcode (0x3)', frame: { opcode: 0x3, payload: Buffer.from('x') }, code: 1002 },
  { name: 'RSV1 set without an extension', frame: { opcode: 0x1, payload: Buffer.from('x'), rsv1: true }, code: 1002 },
  { name: 'invalid UTF-8 in a text frame', frame: { opcode: 0x1, payload: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]) }, code: 1007 },
  { name: 'close code 999', frame: { opcode: 0x8, payload: Buffer.from([0x03, 0xe7]) }, code: 1002 },
  { name: 'a frame over maxPayload', frame: { opcode: 0x2, announcedLength: maxPayload + 1 }, code: 1009 },
  { name: 'a fragmented control frame', frame: { opcode: 0x9, payload: Buffer.from('p'), fin: false }, code: 1002 },
];

describe('headless bridge, malformed frames (switchboard serve in a child process)', () => {
  let child: ChildProcess;
  let url: URL;
  let output = '';
  let tag: string;
  let calculatorPid = 0;
  beforeAll(async () => {
    const rendererDir = tempDir();
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>test UI</title>');
    tag = `--tag=${tempDir()}`;
    const config = join(tempDir(), 'mcp.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { calculator: { command: process.execPath, args: [calculatorPath(), tag] } } }));
    child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, '..', 'cli', 'main.ts'), '--config', config, 'serve', '--port', '0'], {
      env: { PATH: process.env.PATH ?? '', HOME: tempDir(), SWITCHBOARD_UI_DIR: rendererDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout?.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
    await waitFor(() => stdout.includes('\n'), 30_000, 'the URL line');
    url = new URL(stdout.split('\n')[0] ?? '');
    await waitFor(() => pidsWith(tag).length === 1, 15_000, 'the calculator child');
    calculatorPid = pidsWith(tag)[0] ?? 0;
  });
  afterAll(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  });

  for (const { name, frame, code } of cases) {
    it(`${name}: closes that connection (${code}) only; the host and its other clients carry on`, async () => {
      const victim = await rawBridge(url);
      const bystander = await rawBridge(url);
      const victimClosed = closedByServer(victim);
      let bystanderClosed = false;
      bystander.once('close', () => (bystanderClosed = true));
      victim.write(encode(frame));
      const sent = await victimClosed;
      expect(closeCodeIn(sent), `close frame sent before closing (host output: ${output})`).toBe(code);
      // The host is alive and answers a fresh client; the connection opened before is still open.
      expect(child.exitCode, output).toBeNull();
      expect(await callAppInfo(url)).toMatchObject({ kind: 'response', id: 1, envelope: { ok: true, value: { mode: 'headless' } } });
      expect(bystanderClosed).toBe(false);
      bystander.write(encode({ opcode: 0x1, payload: Buffer.from(JSON.stringify({ id: 9, channel: 'app:info', args: [] })) }));
      const reply = await new Promise<string>((resolve) => {
        let received = Buffer.alloc(0);
        bystander.on('data', (chunk: Buffer) => {
          received = Buffer.concat([received, chunk]);
          const texts = framesIn(received)
            .filter((f) => f.opcode === 0x1)
            .map((f) => f.payload.toString('utf8'));
          const answer = texts.find((t) => t.includes('"kind":"response"'));
          if (answer !== undefined) resolve(answer);
        });
      });
      expect(JSON.parse(reply)).toMatchObject({ kind: 'response', id: 9, envelope: { ok: true } });
      bystander.destroy();
      // Its server was not orphaned: the same calculator process still runs under the host.
      expect(alive(calculatorPid)).toBe(true);
      expect(pidsWith(tag)).toEqual([calculatorPid]);
    });
  }

  it('clients that reset their socket while a bad upgrade is refused do not take the host down', async () => {
    // The refusal is written to a socket Node no longer guards; a reset makes that write fail (unhandled: exit 1).
    for (let i = 0; i < 200; i++) {
      const socket = connect(Number(url.port), '127.0.0.1');
      socket.on('error', () => undefined);
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      socket.write(
        `GET /bridge?token=wrong HTTP/1.1\r\nHost: ${url.host}\r\nOrigin: ${url.origin}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      );
      socket.resetAndDestroy();
    }
    expect(await callAppInfo(url)).toMatchObject({ kind: 'response', envelope: { ok: true } });
    expect(child.exitCode, output).toBeNull();
  });
});
