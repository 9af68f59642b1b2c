import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';
import type { HostOptions } from './e2e/fixtures';

/** Debian's Chromium (or CHROMIUM_PATH); undefined falls back to Playwright's own browser, if one is installed. */
/*
 * The kit's mode is fixed per run (SWITCHBOARD_KIT_MODE, read when the fixture loads): `web` here unless asked, so
 * the `web` project never becomes the desktop app where Electron is installed. The `electron` project runs with
 * SWITCHBOARD_KIT_MODE=electron (its tests skip, saying so, otherwise).
 */
process.env.SWITCHBOARD_KIT_MODE ??= 'web';

const chromiumPath = process.env.CHROMIUM_PATH || (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);

export default defineConfig<HostOptions>({
  testDir: 'e2e',
  // The web project serves a copy of out/renderer taken once per run, not the folder a rebuild may be rewriting.
  globalSetup: './e2e/global-setup.ts',
  // 2 cores: each test starts a host and an MCP server or two.
  workers: 1,
  fullyParallel: false,
  retries: 0,
  reporter: 'list',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  outputDir: 'test-results',
  use: {
    viewport: { width: 1280, height: 800 },
    actionTimeout: 10_000,
  },
  projects: [
    {
      name: 'web',
      use: {
        hostMode: 'web',
        browserName: 'chromium',
        launchOptions: {
          ...(chromiumPath ? { executablePath: chromiumPath } : {}),
          args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
        },
      },
    },
    {
      name: 'electron',
      use: { hostMode: 'electron' },
    },
  ],
});
