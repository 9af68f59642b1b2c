import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { repoRoot, type ServerConfig } from './fixtures';
import { serverRow } from './helpers';

export const featuresScript = join(repoRoot, 'src-main', 'core', 'fixtures', 'features-server.mjs');
export const everythingScript = join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');

/** The issue-9 fixture server (resources, prompts, progress, list_changed, logging, tasks) over stdio. */
export function featuresServer(...flags: string[]): ServerConfig {
  return { command: process.execPath, args: [featuresScript, ...flags] };
}

export function everythingServer(): ServerConfig {
  return { command: process.execPath, args: [everythingScript, 'stdio'] };
}

/** Opens a server's page from its sidebar row; returns the page. */
export async function openServerPage(page: Page, name: string): Promise<Locator> {
  await serverRow(page, name).getByTestId('server-open-page').click();
  const serverPage = page.getByTestId('server-page');
  await serverPage.waitFor();
  return serverPage;
}
