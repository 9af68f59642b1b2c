import { oneShot, type CliCommand } from './command';

/**
 * `switchboard chat [--model provider:model] [--approve MODE] [--tool-loading auto|all|search] [--trust-dotenv] "MESSAGE"`: see chat-run.ts, loaded
 * only when it runs (a chunk of the bundled CLI of its own, like the AI SDK behind it).
 */
export const chat: CliCommand = {
  name: 'chat',
  // A chat lasts long enough for a server's lists to change: their listen streams stay open.
  host: { ...oneShot, listen: true },
  run: async (host, args) => (await import('./chat-run')).chatCommand(host, args),
};
