/**
 * Renderer figures for `npm run bench`, measured in Chromium against the built UI in headless mode:
 * - bigResultRenderMs: from pressing Enter on `/big {"bytes":5242880}` until the 5 MB result is on screen (median of 3).
 * - scrollFrameP95Ms: the 95th-percentile frame time while scrolling a 10,000-message conversation.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import type { ChatMessage, Conversation } from '../src-shared/contract/chat';
import { createHost } from '../src-main/core/host';
import { packageRoot } from '../src-main/core/support/paths';
import { nodeRuntime } from '../src-main/core/config/runtime';
import { StaticSettings } from '../src-main/core/settings/store';
import { startHeadless } from '../src-main/headless/server';
import { tempDir } from '../src-main/test-support/processes';
import { percentile } from './common';

export interface RenderFigures {
  bigResultRenderMs: number;
  scrollFrameP95Ms: number;
  figures: { bigResultRunsMs: number[]; scrollFrames: number; scrollFrameP50Ms: number; scrollFrameMaxMs: number; messages: number };
}

const chromiumPath = process.env.CHROMIUM_PATH || (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);

/** A long conversation with varied messages: prose, lists, code, and tool calls with results. */
export function longConversation(count: number): Conversation {
  const messages: ChatMessage[] = [];
  const at = Date.now() - count * 1000;
  for (let i = 0; i < count; i++) {
    if (i % 2 === 0) {
      messages.push({ id: `u${i}`, role: 'user', text: `Question ${i}: what is ${i} + ${i + 1}? Please explain briefly.`, at: at + i * 1000 });
      continue;
    }
    const text =
      i % 6 === 1
        ? `The answer is **${2 * i}**.\n\n- first, take ${i - 1}\n- then add ${i}\n\n\`\`\`ts\nconst sum = ${i - 1} + ${i}; // ${2 * i - 1}\n\`\`\``
        : i % 6 === 3
          ? `Sure. ${'This is a longer paragraph of explanation that wraps over several lines in the panel. '.repeat(3)}`
          : `Done: ${2 * i - 1}.`;
    messages.push({
      id: `a${i}`,
      role: 'assistant',
      at: at + i * 1000,
      model: 'openai:bench',
      status: 'done',
      parts:
        i % 10 === 5
          ? [
              { type: 'text', text: 'Let me compute that. ' },
              {
                type: 'tool',
                callId: `c${i}`,
                server: 'calculator',
                tool: 'add',
                modelName: 'calculator__add',
                args: { a: i - 1, b: i },
                status: 'done',
                decision: 'allow-once',
                result: { content: [{ type: 'text', text: String(2 * i - 1) }] },
                durationMs: 3,
              },
              { type: 'text', text },
            ]
          : [{ type: 'text', text }],
    });
  }
  return { id: 'bench-long-conversation', title: 'Bench: 10,000 messages', createdAt: at, updatedAt: Date.now(), messageCount: messages.length, messages };
}

// In-page scripts as strings: the bench runs under tsx, whose helpers (e.g. __name) do not exist in the page.

/** Resolves with ms from the keydown (Enter) to a painted frame showing the result. */
const watchBigResult = `new Promise((resolve) => {
  let start = 0;
  document.querySelector('[data-testid="chat-input"]').addEventListener('keydown', () => (start = performance.now()), { capture: true, once: true });
  const done = () => document.querySelector('[data-testid="call-card"][data-state="ok"] [data-testid="result-text"]') !== null;
  const observer = new MutationObserver(() => {
    if (start === 0 || !done()) return;
    observer.disconnect();
    requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - start), 0));
  });
  observer.observe(document.body, { childList: true, subtree: true, attributes: true });
})`;

/** Scrolls the log ~2 wheel notches per frame, down for half the frames and back up; resolves with the frame times. */
const scrollFrames = (count: number): string => `new Promise((resolve) => {
  const log = document.querySelector('[data-testid="chat-log"]');
  log.scrollTop = 0;
  const deltas = [];
  let last = 0;
  let step = 0;
  let maxTop = 0;
  const tick = (t) => {
    if (last !== 0) deltas.push(t - last);
    last = t;
    log.scrollTop += step < ${count} / 2 ? 240 : -240;
    maxTop = Math.max(maxTop, log.scrollTop);
    step++;
    if (step < ${count}) requestAnimationFrame(tick);
    else resolve({ deltas, maxTop });
  };
  requestAnimationFrame(() => requestAnimationFrame(tick));
})`;

export async function measureRender(options: { quick?: boolean; log?: (line: string) => void } = {}): Promise<RenderFigures> {
  const log = options.log ?? (() => undefined);
  const rendererDir = join(packageRoot(), 'out', 'renderer');
  if (!existsSync(join(rendererDir, 'index.html'))) {
    log('building the UI for the renderer figures (electron-vite build)…');
    const built = spawnSync(process.execPath, [join(packageRoot(), 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'], {
      cwd: packageRoot(),
      stdio: 'ignore',
    });
    if (built.status !== 0) throw new Error('the UI could not be built (npx electron-vite build)');
  }
  const dataDir = tempDir('switchboard-bench-render-');
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(
    join(dataDir, 'mcp.json'),
    JSON.stringify({ mcpServers: { render: { command: process.execPath, args: [join(import.meta.dirname, 'render-server.mjs')] } } }),
  );
  const host = await createHost({
    mode: 'headless',
    configPath: join(dataDir, 'mcp.json'),
    dataDir,
    envDir: dataDir,
    settings: new StaticSettings(),
    runtime: nodeRuntime(),
    hostEnv: { PATH: process.env.PATH },
  });
  const messages = 10_000;
  host.chat.history.put(longConversation(messages));
  const headless = await startHeadless({ api: host.api, rendererDir });
  const browser = await chromium.launch({
    ...(chromiumPath ? { executablePath: chromiumPath } : {}),
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    await host.settled();
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(headless.url);
    await page.locator('[data-testid="server-row"][data-server="render"][data-status="ready"]').waitFor();

    // 1. A 5 MB tool result: Enter → visible (the card's result is in the DOM and a frame has been painted).
    const bytes = 5 * 1024 * 1024;
    const runs: number[] = [];
    for (let i = 0; i < (options.quick ? 2 : 3); i++) {
      await page.getByTestId('new-chat').click();
      const input = page.getByTestId('chat-input');
      await input.fill(`/big {"bytes":${bytes}}`);
      const measured = page.evaluate<number>(watchBigResult);
      await input.press('Enter');
      runs.push(await measured);
    }

    // 2. Scroll a 10,000-message conversation: open it from the history, then scroll by wheel-sized steps, one per frame.
    await page.getByTestId('new-chat').click();
    await page.getByTestId('history-toggle').click();
    await page.locator('[data-testid="history-item"][data-id="bench-long-conversation"] .history-open').click();
    await page.getByTestId('assistant-message').first().waitFor();
    const count = options.quick ? 300 : 600;
    const scrolled = await page.evaluate<{ deltas: number[]; maxTop: number }>(scrollFrames(count));
    // Frame times only mean something if the list really moved: at least 90% of the intended distance.
    if (scrolled.maxTop < 0.9 * (count / 2) * 240) throw new Error(`the conversation did not scroll (reached ${scrolled.maxTop}px)`);
    const frames = scrolled.deltas;
    const sortedRuns = [...runs].sort((a, b) => a - b);
    return {
      bigResultRenderMs: Math.round(sortedRuns[Math.floor(sortedRuns.length / 2)] ?? Number.NaN),
      scrollFrameP95Ms: Number(percentile(frames, 95).toFixed(1)),
      figures: {
        bigResultRunsMs: runs.map(Math.round),
        scrollFrames: frames.length,
        scrollFrameP50Ms: Number(percentile(frames, 50).toFixed(1)),
        scrollFrameMaxMs: Number(Math.max(...frames).toFixed(1)),
        messages,
      },
    };
  } finally {
    await browser.close();
    await headless.dispose();
    await host.dispose();
  }
}

// `node --import tsx bench/render.ts` runs just these two.
if (import.meta.url === `file://${process.argv[1]}`) {
  measureRender({ quick: process.argv.includes('--quick'), log: (l) => process.stderr.write(`${l}\n`) }).then(
    (figures) => {
      process.stdout.write(`${JSON.stringify(figures)}\n`);
      process.exit(0);
    },
    (error: unknown) => {
      process.stderr.write(`render bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
