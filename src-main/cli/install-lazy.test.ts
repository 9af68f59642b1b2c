import { describe, expect, it } from 'vitest';
import { parseArgs } from './args';
import * as install from './commands/install-run';
import * as lazy from './commands/install';

describe('install-lazy', () => {
  it('offers the commands install.ts defines, no more and no fewer', () => {
    expect(Object.keys(lazy.installCommands).sort()).toEqual(Object.keys(install.installCommands).sort());
  });

  it("reports install.ts's usage problems for its commands, none for the others", async () => {
    for (const argv of [['install'], ['uninstall', 'a', 'b'], ['registry', 'frob'], ['registry', 'add'], ['install', 'x'], ['tools'], ['list', 'x', 'y']]) {
      const args = parseArgs(argv);
      expect([argv, await lazy.installUsageProblem(args)]).toEqual([argv, install.installUsageProblem(args)]);
    }
    expect(install.installUsageProblem(parseArgs(['install']))).toBeDefined();
  });
});
