/**
 * Host memory per idle connected server, measured in a fresh process: `node --expose-gc --import tsx bench/rss.ts N`.
 * Prints one JSON line: RSS and JS heap+external before and after N servers are connected and idle.
 */
import { echo, hostWith } from './common';

const fleet = Number(process.argv[2] ?? 20);
const gc = (): void => {
  const collect = (globalThis as { gc?: () => void }).gc;
  collect?.();
  collect?.();
};
const settle = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const heap = (): number => process.memoryUsage().heapUsed + process.memoryUsage().external;

// Warm-up: every module and code path a connection uses is loaded before the baseline.
const warm = await hostWith({ w: { command: process.execPath, args: [echo, '--warm'] } });
await warm.settled();
await warm.api['tools:call']({ server: 'w', tool: 'echo', args: { text: 'x' } });
gc();
await settle(300);
gc();
const rssBefore = process.memoryUsage().rss;
const heapBefore = heap();
const servers: Record<string, unknown> = {};
for (let i = 0; i < fleet; i++) servers[`r${i}`] = { command: process.execPath, args: [echo, `--r=${i}`] };
const host = await hostWith(servers);
await host.settled();
const ready = (await host.api['servers:list']()).filter((v) => v.status === 'ready').length;
if (ready !== fleet) throw new Error(`only ${ready} of ${fleet} servers ready`);
await settle(500);
gc();
const rssAfter = process.memoryUsage().rss;
const heapAfter = heap();
await host.dispose();
await warm.dispose();
process.stdout.write(`${JSON.stringify({ rssBefore, rssAfter, heapBefore, heapAfter })}\n`);
process.exit(0);
