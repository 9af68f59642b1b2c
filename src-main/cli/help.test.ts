import { describe, expect, it } from 'vitest';
import { catalogues } from '../../src-shared/i18n';
import { usage } from './args';

// --help says what the CLI does, as the README does, in every language: the entries tested here once drifted apart.

const helps = { en: usage, 'zh-CN': catalogues['zh-CN'].cli.usage };

/** The lines of a command's entry: from `  NAME …` to the next command. */
function entry(help: string, name: string): string {
  const lines = help.split('\n');
  const start = lines.findIndex((line) => line.startsWith(`  ${name} `));
  const end = lines.findIndex((line, i) => i > start && /^ {2}[a-z]/.test(line));
  return lines.slice(start, end).join('\n');
}

describe('--help', () => {
  it.each(Object.entries(helps))('%s: install says a bundle signature is checked, not that signed bundles are refused', (_language, help) => {
    const install = entry(help, 'install');
    expect(install).toContain('FILE.mcpb');
    expect(install).not.toMatch(/signed bundles are refused|带签名的包会被拒绝/);
    expect(install).toMatch(/signature is\s+checked|校验签名/);
    expect(install).toMatch(/verified|已验证/);
  });

  it('names the same choices (a|b|c) in every language', () => {
    const choices = [...new Set([...usage.matchAll(/[\w"-]+(?:\|[\w"-]+)+/g)].map((m) => m[0]))];
    expect(choices.length).toBeGreaterThan(3);
    for (const help of Object.values(helps)) expect(choices.filter((choice) => !help.includes(choice))).toEqual([]);
  });
});
