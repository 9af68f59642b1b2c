// `switchboard skills` / `switchboard skill` as scripts use them: real CLI processes (tsx) over skills-server.mjs (the
// SDK's SkillsExtension) and the tiny server (no skills): the table, --json shapes, exit codes, a changed skill marked
// and accepted with `switchboard trust`, and the Chinese table.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliSync } from '../test-support/cli-process';
import { tempDir } from '../test-support/processes';

const fixtures = join(import.meta.dirname, '..', 'core', 'fixtures');

function setup(): { run(args: string[], lang?: string): { status: number | null; stdout: string; stderr: string }; variant(v: string): void } {
  const home = tempDir();
  const variantFile = join(home, 'variant');
  const config = join(home, 'mcp.json');
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: {
        skills: { command: process.execPath, args: [join(fixtures, 'skills-server.mjs'), `--variant-file=${variantFile}`] },
        tiny: { command: process.execPath, args: [join(fixtures, 'tiny-server.mjs')] },
      },
    }),
  );
  return {
    variant: (v) => writeFileSync(variantFile, v),
    run: (args, lang = 'en') => runCliSync(['--config', config, ...args], { HOME: home, SWITCHBOARD_LANG: lang }),
  };
}

describe('switchboard skills / skill', () => {
  it('lists skills (table, --json), prints a SKILL.md (--json: the skills/get result), exit codes 0/1/2', () => {
    const { run } = setup();
    const table = run(['skills']);
    expect(table.status, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/^SERVER\s+SKILL\s+DESCRIPTION\s+URI\n/);
    expect(table.stdout).toMatch(/^skills\s+pdf-forms\s+Fill in PDF forms field by field\s+skill:\/\/pdf-forms\/SKILL\.md$/m);

    const listed = run(['--json', 'skills', 'skills']);
    expect(listed.status, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([
      { server: 'skills', name: 'code-review', description: 'Review a change for bugs and style', uri: 'skill://code-review/SKILL.md' },
      { server: 'skills', name: 'pdf-forms', description: 'Fill in PDF forms field by field', uri: 'skill://pdf-forms/SKILL.md' },
    ]);
    // A server without the extension: no skills, not an error.
    const none = run(['--json', 'skills', 'tiny']);
    expect(none.status, none.stderr).toBe(0);
    expect(JSON.parse(none.stdout)).toEqual([]);

    const shown = run(['skill', 'skills', 'pdf-forms']);
    expect(shown.status, shown.stderr).toBe(0);
    expect(shown.stdout).toBe(
      '---\nname: pdf-forms\ndescription: Fill in PDF forms field by field\n---\n# PDF forms\n\nFill each field in order (variant 1). See references/FORMS.md for the field types.\n',
    );
    const got = run(['--json', 'skill', 'skills', 'code-review']);
    expect(got.status, got.stderr).toBe(0);
    expect(JSON.parse(got.stdout)).toMatchObject({
      skill: { uri: 'skill://code-review/SKILL.md', frontmatter: { name: 'code-review' }, resources: [{ uri: 'skill://code-review/SKILL.md' }] },
    });

    const unknownSkill = run(['skill', 'skills', 'nope']);
    expect(unknownSkill.status).toBe(1);
    expect(unknownSkill.stderr).toContain('Server "skills" has no skill "nope". Its skills: code-review, pdf-forms.');
    const unknownServer = run(['skill', 'nosuch', 'pdf-forms']);
    expect(unknownServer.status).toBe(2);
    const noSkills = run(['skill', 'tiny', 'x']);
    expect(noSkills.status).toBe(1);
    expect(noSkills.stderr).toContain('does not offer skills');
    expect(run(['skill', 'skills']).status).toBe(2);
  }, 90_000);

  it('a changed skill is marked in the table and accepted with switchboard trust; the table in Chinese', () => {
    const { run, variant } = setup();
    variant('1');
    expect(run(['skills', 'skills']).status).toBe(0);
    variant('2');
    const marked = run(['skills', 'skills']);
    expect(marked.status, marked.stderr).toBe(0);
    expect(marked.stdout).toMatch(/^skills\s+pdf-forms \[changed — needs review\]/m);
    expect(marked.stdout).toContain('skills/pdf-forms (skill): changed since it was trusted (files); accept with: switchboard trust skills pdf-forms');

    const zh = run(['skills', 'skills'], 'zh-CN');
    expect(zh.stdout).toMatch(/^服务器\s+技能\s+描述\s+URI\n/);
    expect(zh.stdout).toMatch(/pdf-forms \[已更改 — 需要审核\]/);

    const trusted = run(['trust', 'skills', 'pdf-forms']);
    expect(trusted.status, trusted.stderr).toBe(0);
    expect(trusted.stdout).toContain('Trusted 1 skill(s) of skills: pdf-forms.');
    const after = run(['skills', 'skills']);
    expect(after.stdout).not.toContain('needs review');
  }, 90_000);
});

describe('--help', () => {
  it('names skills and skill in English and in Chinese', async () => {
    const { usage } = await import('./args');
    const { catalogues } = await import('../../src-shared/i18n');
    for (const help of [usage, catalogues['zh-CN'].cli.usage]) {
      expect(help).toContain('  skills [SERVER]');
      expect(help).toContain('  skill SERVER NAME');
      expect(help).toContain('trust SERVER [TOOL…|SKILL…]');
    }
  });
});
