// The installers' configuration, checked where Electron cannot be downloaded (electron-builder needs its binary to
// build anything): the targets per OS, publishing to GitHub releases for electron-updater, the fuses hook, and the
// release workflow that builds them on each OS.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TargetConfiguration } from 'electron-builder';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import config, { afterPack, githubRepository } from '../../electron-builder.config';
import { packageRoot } from '../core/support/paths';
import { fuseConfigFor } from './fuses';

/** A platform's targets as `name → arches` (electron-builder takes strings or {target, arch}). */
function targetsOf(target: string | TargetConfiguration | Array<string | TargetConfiguration> | null | undefined): Record<string, string[]> {
  const list = target === undefined || target === null ? [] : Array.isArray(target) ? target : [target];
  return Object.fromEntries(
    list.map((t: string | TargetConfiguration) =>
      typeof t === 'string' ? [t, []] : [t.target, t.arch === undefined ? [] : Array.isArray(t.arch) ? t.arch.map(String) : [String(t.arch)]],
    ),
  );
}

interface WorkflowStep {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}
interface Workflow {
  on: Record<string, unknown>;
  permissions?: Record<string, string>;
  jobs: Record<string, { 'runs-on': string; strategy?: { matrix?: { os?: string[] } }; steps: WorkflowStep[] }>;
}

describe('installers (electron-builder.config.ts)', () => {
  it('builds AppImage and deb on Linux, a universal dmg (and the zip macOS updates from), NSIS on Windows', () => {
    expect(targetsOf(config.linux?.target)).toEqual({ AppImage: [], deb: [] });
    expect(config.linux?.maintainer).toMatch(/<.+@.+>/); // deb refuses a package without one
    expect(targetsOf(config.mac?.target)).toEqual({ dmg: ['universal'], zip: ['universal'] });
    expect(targetsOf(config.win?.target)).toEqual({ nsis: ['x64'] });
  });

  it('publishes to GitHub releases, the repository named by GITHUB_REPOSITORY in the workflow', () => {
    const publish = Array.isArray(config.publish) ? config.publish : [config.publish];
    expect(publish).toHaveLength(1);
    expect(publish[0]).toMatchObject({ provider: 'github', releaseType: 'release' });
    expect(githubRepository('someone/switchboard')).toEqual({ owner: 'someone', repo: 'switchboard' });
    expect(githubRepository(undefined)).toEqual({});
    expect(githubRepository('not a repository')).toEqual({});
  });

  it('keeps the fuses hook and the app contents (without the npm package’s CLI bundle)', () => {
    expect(config.afterPack).toBe(afterPack);
    // The universal binary's arm64 slice needs its ad-hoc signature reset after the fuses flip, as arm64 does.
    expect(fuseConfigFor('darwin', 'universal').resetAdHocDarwinSignature).toBe(true);
    expect(config.files).toEqual(expect.arrayContaining(['out/**/*', 'resources/**/*', 'package.json', '!out/cli/**']));
  });

  it('has electron-updater as an exact-pinned runtime dependency (the packaged app loads it)', () => {
    const pkg = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    expect(pkg.dependencies['electron-updater']).toMatch(/^\d+\.\d+\.\d+$/);
    expect(pkg.devDependencies['electron-updater']).toBeUndefined();
  });
});

describe('.github/workflows/release.yml', () => {
  const workflow = parse(readFileSync(join(packageRoot(), '.github', 'workflows', 'release.yml'), 'utf8')) as Workflow;
  const jobs = Object.values(workflow.jobs);

  it('parses, and builds on Linux, macOS and Windows from a tag (publishing) or by hand', () => {
    expect(Object.keys(workflow.on).sort()).toEqual(['push', 'workflow_dispatch']);
    expect(workflow.on.push).toEqual({ tags: ['v*'] });
    expect(workflow.permissions).toEqual({ contents: 'write' });
    expect(jobs).toHaveLength(1);
    const [job] = jobs;
    expect(job?.strategy?.matrix?.os).toEqual(['ubuntu-latest', 'macos-latest', 'windows-latest']);
    expect(job?.['runs-on']).toBe('${{ matrix.os }}');
  });

  it('installs with npm ci on Node ≥ 22.12 and runs npm run package with the GitHub token', () => {
    const steps = jobs[0]?.steps ?? [];
    const node = steps.find((s) => s.uses?.startsWith('actions/setup-node@'));
    const [major = 0, minor = 0] = String(node?.with?.['node-version']).split('.').map(Number);
    expect(major > 22 || (major === 22 && minor >= 12)).toBe(true);
    const runs = steps.map((s) => s.run ?? '');
    expect(runs.findIndex((r) => r.startsWith('npm ci'))).toBeGreaterThanOrEqual(0);
    const pack = steps.find((s) => s.run?.startsWith('npm run package -- --publish '));
    expect(runs.findIndex((r) => r.startsWith('npm ci'))).toBeLessThan(steps.indexOf(pack ?? {}));
    expect(pack?.env?.GH_TOKEN).toBe('${{ secrets.GITHUB_TOKEN }}');
    const pkg = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.package).toContain('electron-builder --config electron-builder.config.ts');
    const upload = steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'));
    expect(String(upload?.with?.path)).toMatch(/AppImage[\s\S]*deb[\s\S]*dmg[\s\S]*exe/);
  });
});
