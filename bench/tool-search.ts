/**
 * Tool search (the chat's `toolLoading`), measured in one run:
 * - toolSearchBytesRatio: the tool JSON of the first request to the model in search mode ÷ in all mode, with 300
 *   tools over 3 servers (the catalogue fixture's sets, 100 each), as the real host sends it to a fake OpenAI-compatible
 *   vendor on loopback;
 * - toolSearchRecallAt5: the labelled queries (src-main/core/chat/tool-search/labelled-queries.ts) over
 *   server-everything's, server-filesystem's and the catalogue's tool lists as the servers list them;
 * - toolSearchRankP95Ms: one search over ~5,000 tools (the same servers, the catalogue padded), p95 over every
 *   labelled query, several rounds; the index is built once per tool list, and its build time is given beside.
 *
 * Standalone: `node --import tsx bench/tool-search.ts [--quick]` prints one JSON line.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { labelledQueries, recallAt } from '../src-main/core/chat/tool-search/labelled-queries';
import { ToolIndex } from '../src-main/core/chat/tool-search/tool-index';
import { disposeHarnesses, harness } from '../src-main/test-support/chat-harness';
import { say, sequence } from '../src-main/test-support/fake-providers';
import { catalogueServers, listCatalogue } from '../src-main/test-support/tool-catalogue';
import { percentile, round } from './common';

export interface ToolSearchResult {
  toolSearchBytesRatio: number;
  toolSearchRecallAt5: number;
  toolSearchRankP95Ms: number;
  figures: {
    firstRequestToolBytes: { all: number; search: number };
    toolsOffered: { all: number; search: number };
    queries: number;
    recallAt1: number;
    recallMisses: Array<{ query: string; got: string[] }>;
    rankTools: number;
    rankP50Ms: number;
    indexBuildMs: number;
  };
}

const fixture = join(import.meta.dirname, '..', 'src-main', 'core', 'fixtures', 'catalog-server.mjs');

async function firstRequestBytes(): Promise<{ bytes: { all: number; search: number }; offered: { all: number; search: number } }> {
  const servers = Object.fromEntries(
    ['dev', 'office', 'zh'].map((set) => [set, { command: process.execPath, args: [fixture, `--set=${set}`, '--tools=100'] }]),
  );
  const h = await harness('openai', sequence(say('ok')), { servers });
  try {
    const bytes = { all: 0, search: 0 };
    const offered = { all: 0, search: 0 };
    for (const mode of ['all', 'search'] as const) {
      await h.host.api['chat:update-settings']({ toolLoading: mode });
      const before = h.fake.requests.length;
      await h.send('hello');
      const first = h.fake.requests[before];
      bytes[mode] = Buffer.byteLength(JSON.stringify(first?.body.tools ?? []));
      offered[mode] = first?.toolNames.length ?? 0;
    }
    return { bytes, offered };
  } finally {
    await disposeHarnesses();
  }
}

export async function measureToolSearch(options: { quick: boolean }): Promise<ToolSearchResult> {
  const { bytes, offered } = await firstRequestBytes();

  const catalogue = await listCatalogue();
  const index = new ToolIndex(catalogue);
  const recall5 = recallAt(index, 5);
  const recall1 = recallAt(index, 1);

  const big = await listCatalogue(catalogueServers(1660));
  const builds: number[] = [];
  let bigIndex: ToolIndex | undefined;
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    bigIndex = new ToolIndex(big);
    builds.push(performance.now() - t);
  }
  const samples: number[] = [];
  const rounds = options.quick ? 5 : 20;
  for (const q of labelledQueries) bigIndex?.search(q.query, 8); // warm-up
  for (let r = 0; r < rounds; r++) {
    for (const q of labelledQueries) {
      const t = performance.now();
      bigIndex?.search(q.query, 8);
      samples.push(performance.now() - t);
    }
  }
  return {
    toolSearchBytesRatio: round(bytes.search / bytes.all, 3),
    toolSearchRecallAt5: round(recall5.recall, 3),
    toolSearchRankP95Ms: round(percentile(samples, 95), 2),
    figures: {
      firstRequestToolBytes: bytes,
      toolsOffered: offered,
      queries: labelledQueries.length,
      recallAt1: round(recall1.recall, 3),
      recallMisses: recall5.misses,
      rankTools: big.length,
      rankP50Ms: round(percentile(samples, 50), 2),
      indexBuildMs: Math.round(Math.min(...builds)),
    },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  measureToolSearch({ quick: process.argv.includes('--quick') }).then(
    (result) => process.stdout.write(`${JSON.stringify(result)}\n`),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
      process.exit(1);
    },
  );
}
