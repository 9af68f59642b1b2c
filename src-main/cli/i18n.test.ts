// The catalogues (src-shared/i18n): same keys in every language, and every t('…') in the source has one.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { usage } from './args';
import { isHostErrorCode, type HostErrorCode } from '../../src-shared/errors';
import { catalogues, languages } from '../../src-shared/i18n';
import { runCliSync } from '../test-support/cli-process';
import { tempDir } from '../test-support/processes';
import { cliLanguage, namedIn, usageNames } from './i18n';

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}

const flat = Object.fromEntries(languages.map((l) => [l, flatten(catalogues[l] as unknown as Tree)])) as Record<
  (typeof languages)[number],
  Map<string, string>
>;
const placeholders = (text: string) => [...text.matchAll(/\{\{\s*([\w.-]+)\s*\}\}/g)].map((m) => m[1]).sort();

const root = join(import.meta.dirname, '..', '..');
function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (/\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name)) out.push(path);
  }
  return out;
}

describe('catalogues', () => {
  it('en and zh-CN have exactly the same keys, none empty', () => {
    const en = [...flat.en.keys()].sort();
    for (const language of languages) {
      const keys = [...flat[language].keys()].sort();
      expect({ language, missing: en.filter((k) => !flat[language].has(k)) }).toEqual({ language, missing: [] });
      expect({ language, extra: keys.filter((k) => !flat.en.has(k)) }).toEqual({ language, extra: [] });
      expect({ language, empty: keys.filter((k) => (flat[language].get(k) ?? '').trim() === '') }).toEqual({ language, empty: [] });
    }
  });

  it('each translation fills the same placeholders as the English (except the whole usage text)', () => {
    const differing = [...flat.en.entries()]
      .filter(([key]) => key !== 'cli.usage')
      .filter(([key, text]) => JSON.stringify(placeholders(flat['zh-CN'].get(key) ?? '')) !== JSON.stringify(placeholders(text)))
      .map(([key]) => key);
    expect(differing).toEqual([]);
  });

  it('every t("…") key used in the UI and CLI source is in the catalogues', () => {
    const files = [...sourceFiles(join(root, 'src-renderer')), ...sourceFiles(join(root, 'src-main', 'cli')), ...sourceFiles(join(root, 'src-shared'))];
    const used = new Map<string, string>();
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      // t('a.b'), t("a.b"), cliT('a.b'), i18n.t('a.b'), and <Trans i18nKey="a.b">
      for (const m of text.matchAll(/(?:\bt|\bcliT|\.t)\(\s*(['"])([\w.-]+)\1/g)) used.set(m[2] ?? '', relative(root, file));
      for (const m of text.matchAll(/i18nKey=(['"])([\w.-]+)\1/g)) used.set(m[2] ?? '', relative(root, file));
    }
    expect(used.size).toBeGreaterThan(20);
    const missing = [...used.entries()].filter(([key]) => !flat.en.has(key) && !flat.en.has(`${key}_other`)).map(([key, file]) => `${key} (${file})`);
    expect(missing).toEqual([]);
  });

  it('every HostError code has a generic wording in every language', () => {
    const codes = Object.keys((catalogues.en as unknown as { errors: Tree }).errors);
    for (const code of codes.filter((c) => c !== 'disconnected')) expect(isHostErrorCode(code)).toBe(true);
    const all: HostErrorCode[] = [
      'invalid-argument',
      'unknown-server',
      'unknown-tool',
      'server-not-ready',
      'tool-call-failed',
      'cancelled',
      'config-invalid',
      'provider-error',
      'not-configured',
      'not-supported',
      'request-failed',
      'needs-review',
      'internal',
    ];
    for (const language of languages)
      for (const code of all) expect(flat[language].has(`errors.${code}.generic`), `${language} errors.${code}.generic`).toBe(true);
  });

  it('the Chinese --help names every command and flag of the English one (the English help follows for any it lacks)', () => {
    const names = usageNames(usage);
    expect(names.length).toBeGreaterThan(20);
    expect(names).toContain('registry');
    expect(names).toContain('--approve');
    const zh = flat['zh-CN'].get('cli.usage') ?? '';
    const lacking = names.filter((name) => !namedIn(zh, name));
    const shown = localizedUsageIn('zh-CN');
    expect(names.filter((name) => !namedIn(shown, name))).toEqual([]);
    // Complete: the Chinese text alone; else the English help is appended after a note.
    if (lacking.length === 0) expect(shown).not.toContain(usage);
    else expect(shown).toContain(`${flat['zh-CN'].get('cli.usageIncomplete') ?? ''}\n\n${usage}`);
  });
});

/** --help as the CLI prints it in `language` (a child process: the language is chosen once per process). */
function localizedUsageIn(language: string): string {
  return cli(['--help'], { SWITCHBOARD_LANG: language }).stdout.replace(/\n$/, '');
}

const cli = runCliSync;

describe('the CLI in Chinese', () => {
  it('takes SWITCHBOARD_LANG first, then LC_ALL / LC_MESSAGES / LANG, else English', () => {
    expect(cliLanguage({ SWITCHBOARD_LANG: 'zh-CN', LANG: 'en_US.UTF-8' })).toBe('zh-CN');
    expect(cliLanguage({ SWITCHBOARD_LANG: 'en', LANG: 'zh_CN.UTF-8' })).toBe('en');
    expect(cliLanguage({ LC_ALL: 'zh_CN.UTF-8' })).toBe('zh-CN');
    expect(cliLanguage({ LANG: 'C.UTF-8' })).toBe('en');
    expect(cliLanguage({})).toBe('en');
  });

  it('--help, usage errors and host errors follow SWITCHBOARD_LANG; the exit codes stay', () => {
    const help = cli(['--help'], { SWITCHBOARD_LANG: 'zh-CN' });
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^用法：switchboard/);
    expect(help.stdout).toContain('registry add NAME');

    const unknown = cli(['bogus'], { SWITCHBOARD_LANG: 'zh-CN' });
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('switchboard: 未知命令“bogus”');

    const port = cli(['serve', '--port', 'x'], { LANG: 'zh_CN.UTF-8' });
    expect(port.status).toBe(2);
    expect(port.stderr).toContain('--port 必须是 0-65535 之间的整数');

    const config = join(tempDir(), 'mcp.json');
    writeFileSync(config, JSON.stringify({ mcpServers: {} }));
    const call = cli(['--config', config, 'call', 'nope', 'add'], { SWITCHBOARD_LANG: 'zh-CN' });
    expect(call.status).not.toBe(0);
    expect(call.stderr).toContain('配置中没有名为“nope”的服务器。');

    const english = cli(['bogus'], {});
    expect(english.status).toBe(2);
    expect(english.stderr).toContain('switchboard: unknown command "bogus"');
  });
});
