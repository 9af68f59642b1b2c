import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchRemoteImage, isPrivateAddress } from './remote-image';

const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

describe('remote images', () => {
  let server: Server;
  let base = '';
  let hits = 0;
  beforeAll(async () => {
    server = createServer((req, res) => {
      hits++;
      if (req.url === '/dot.png') res.writeHead(200, { 'content-type': 'image/png' }).end(png);
      else if (req.url === '/huge.png') {
        res.writeHead(200, { 'content-type': 'image/png' });
        const chunk = Buffer.alloc(1024 * 1024);
        let sent = 0;
        const pump = (): void => {
          while (sent < 50 && res.write(chunk)) sent++;
          if (sent < 50) res.once('drain', pump);
          else res.end();
        };
        res.on('close', () => (sent = 50));
        pump();
      } else if (req.url === '/loop') res.writeHead(302, { location: '/loop' }).end();
      else if (req.url === '/to-dot') res.writeHead(302, { location: '/dot.png' }).end();
      else res.writeHead(200, { 'content-type': 'text/html' }).end('<p>hi</p>');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => server.close());

  it('classifies loopback, private, link-local and mapped addresses as private', () => {
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '0.0.0.0',
      '::1',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '100.64.0.1',
    ]) {
      expect(isPrivateAddress(a), a).toBe(true);
    }
    for (const a of ['93.184.216.34', '1.1.1.1', '2606:4700:4700::1111']) expect(isPrivateAddress(a), a).toBe(false);
  });

  it('refuses this machine and private networks, by address or by name, without sending a request', async () => {
    const before = hits;
    await expect(fetchRemoteImage(`${base}/dot.png`)).rejects.toThrow(/is not a public image address/);
    await expect(fetchRemoteImage(`${base.replace('127.0.0.1', 'localhost')}/dot.png`)).rejects.toThrow(/is not a public image address/);
    await expect(fetchRemoteImage('http://[::1]:9/x.png')).rejects.toThrow(/is not a public image address/);
    expect(hits).toBe(before);
  });

  it('(loopback allowed for tests) returns a data: URL, follows a redirect, refuses non-images, loops and oversize bodies', async () => {
    const allow = { allowPrivateNetworks: true };
    expect((await fetchRemoteImage(`${base}/dot.png`, allow)).dataUrl).toBe(`data:image/png;base64,${png.toString('base64')}`);
    expect((await fetchRemoteImage(`${base}/to-dot`, allow)).dataUrl).toMatch(/^data:image\/png;base64,/);
    await expect(fetchRemoteImage(`${base}/page`, allow)).rejects.toThrow(/is not an image \(it is text\/html\)/);
    await expect(fetchRemoteImage(`${base}/loop`, allow)).rejects.toThrow(/more than 3 redirects/);
    const rss = process.memoryUsage().rss;
    await expect(fetchRemoteImage(`${base}/huge.png`, allow)).rejects.toThrow(/larger than 10 MB/);
    // It stopped reading at the cap instead of buffering all 50 MB.
    expect(process.memoryUsage().rss - rss).toBeLessThan(40 * 1024 * 1024);
  });
});
