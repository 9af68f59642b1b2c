import { describe, expect, it } from 'vitest';
import { parseArgs, usage } from '../args';
import { usageNames } from '../i18n';
import { commandNamed, commands } from './index';

// The table main.ts dispatches over, against --help: a command added to one and not the other fails here.

describe('the command table', () => {
  it('has one entry per command --help names, in its order', () => {
    const helped = usageNames(usage).filter((name) => !name.startsWith('--'));
    expect(commands.map((c) => c.name)).toEqual(helped);
  });

  it('finds commands by name only (no inherited property is a command)', () => {
    expect(commandNamed('list')?.name).toBe('list');
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) expect(commandNamed(name)).toBeUndefined();
  });

  it('checks usage from the arguments alone', async () => {
    const problem = async (argv: string[]): Promise<string | undefined> => {
      const args = parseArgs(argv);
      return commandNamed(args.command ?? '')?.check?.(args);
    };
    expect(await problem(['call', 'calculator'])).toBeDefined();
    expect(await problem(['call', 'calculator', 'add', '{}'])).toBeUndefined();
    expect(await problem(['secret', 'frob'])).toBeDefined();
    expect(await problem(['complete', 's', 'tool', 'n', 'a', 'v'])).toBeDefined();
    expect(await problem(['install'])).toBeDefined();
    expect(await problem(['login', 'a', 'b'])).toBeDefined();
  });

  it('starts servers, watches the file and enforces consent only where the command needs it', () => {
    const needs = (name: string) => commandNamed(name)?.host;
    expect(needs('serve')).toMatchObject({ watchConfig: true, requireConsent: true, answers: 'app', stopOnSignal: false, listen: true });
    expect(needs('chat')).toMatchObject({ watchConfig: false, requireConsent: false, answers: 'terminal', listen: true });
    for (const name of ['import', 'export', 'secret', 'registry', 'install', 'uninstall']) expect([name, needs(name)?.startServers]).toEqual([name, false]);
    for (const name of ['list', 'tools', 'call', 'doctor', 'trust'])
      expect([name, needs(name)?.listen, needs(name)?.startServers]).toEqual([name, false, true]);
  });
});
