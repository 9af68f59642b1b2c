import { join } from 'node:path';
import type { TestInfo } from '@playwright/test';
import { repoRoot, type HostMode } from './fixtures';
import type { Language } from './i18n-helpers';

/**
 * Where a README picture goes: docs/ in the web project (the suite regenerates the README's images), the test's
 * output folder in the Electron run (its own copies, the tree untouched). Pictures in 简体中文 are named with the
 * language (`servers.png` → `servers-zh-CN.png`).
 */
export function docsShotPath(mode: HostMode, name: string, testInfo: TestInfo, language: Language = 'en'): string {
  const file = language === 'en' ? name : name.replace(/\.png$/, `-${language}.png`);
  return mode === 'web' ? join(repoRoot, 'docs', file) : testInfo.outputPath(file);
}
