import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { CoreError } from '../errors';

export const maxImageBytes = 10 * 1024 * 1024;
const maxRedirects = 3;

/** Addresses a remote image may not come from: this machine and private networks (no SSRF through "Load image"). */
const privateRanges = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const)
  privateRanges.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  privateRanges.addSubnet(net, prefix, 'ipv6');

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  if (family === 6 && /^::ffff:/i.test(address)) return isPrivateAddress(address.replace(/^::ffff:/i, ''));
  return privateRanges.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export interface RemoteImageOptions {
  /** Tests fetch from loopback fixtures; the app never sets this. */
  allowPrivateNetworks?: boolean;
  timeoutMs?: number;
}

const refused = (url: string): CoreError => new CoreError('invalid-argument', `Could not load ${url}: it is not a public image address.`);

/**
 * A remote image the user chose to see, fetched by main and returned as a data: URL (the page may load no remote
 * image). Public addresses only — checked at connect time, so DNS cannot point it elsewhere afterwards — at most
 * three redirects (each checked), at most 10 MB read, image types only.
 */
export async function fetchRemoteImage(url: string, options: RemoteImageOptions = {}): Promise<{ dataUrl: string }> {
  const deadline = AbortSignal.timeout(options.timeoutMs ?? 15_000);
  let current = url;
  for (let hop = 0; hop <= maxRedirects; hop++) {
    const target = new URL(current);
    if (target.protocol !== 'http:' && target.protocol !== 'https:') throw refused(url);
    const response = await get(target, options, deadline, url);
    const status = response.statusCode ?? 0;
    if (status >= 300 && status < 400 && response.headers.location) {
      response.resume();
      current = new URL(response.headers.location, target).href;
      continue;
    }
    if (status < 200 || status >= 300) {
      response.resume();
      throw new CoreError('invalid-argument', `Could not load ${url}: HTTP ${status}.`);
    }
    const type = (response.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    if (!/^image\/[\w.+-]+$/.test(type)) {
      response.resume();
      throw new CoreError('invalid-argument', `${url} is not an image (it is ${type || 'of no stated type'}).`);
    }
    const body = await readCapped(response, url);
    return { dataUrl: `data:${type};base64,${body.toString('base64')}` };
  }
  throw new CoreError('invalid-argument', `Could not load ${url}: more than ${maxRedirects} redirects.`);
}

function get(target: URL, options: RemoteImageOptions, signal: AbortSignal, original: string): Promise<IncomingMessage> {
  // The address is checked when the socket connects, on the address actually used.
  const lookup: LookupFunction = (hostname, lookupOptions, callback) => {
    dnsLookup(hostname, { ...lookupOptions, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 4);
      const allowed = options.allowPrivateNetworks ? addresses : addresses.filter((a) => !isPrivateAddress(a.address));
      if (allowed.length === 0 || allowed.length !== addresses.length) return callback(refused(original), '', 4);
      if (lookupOptions.all) return callback(null, allowed as unknown as string, 4);
      const first = allowed[0] as LookupAddress;
      callback(null, first.address, first.family);
    });
  };
  const literal = target.hostname.replace(/^\[|\]$/g, '');
  if (isIP(literal) && !options.allowPrivateNetworks && isPrivateAddress(literal)) return Promise.reject(refused(original));
  return new Promise((resolve, reject) => {
    const request = (target.protocol === 'https:' ? httpsRequest : httpRequest)(
      target,
      { method: 'GET', lookup, signal, headers: { accept: 'image/*' } },
      resolve,
    );
    request.on('error', (error) =>
      reject(error instanceof CoreError ? error : new CoreError('invalid-argument', `Could not load ${original}: ${error.message}`)),
    );
    request.end();
  });
}

function readCapped(response: IncomingMessage, url: string): Promise<Buffer> {
  const declared = Number(response.headers['content-length'] ?? '0');
  if (declared > maxImageBytes) {
    response.destroy();
    return Promise.reject(new CoreError('invalid-argument', `${url} is larger than 10 MB.`));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    response.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxImageBytes) {
        response.destroy();
        reject(new CoreError('invalid-argument', `${url} is larger than 10 MB.`));
        return;
      }
      chunks.push(chunk);
    });
    response.on('end', () => resolve(Buffer.concat(chunks)));
    response.on('error', (error) => reject(new CoreError('invalid-argument', `Could not load ${url}: ${error.message}`)));
  });
}
