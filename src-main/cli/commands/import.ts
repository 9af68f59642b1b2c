import { cliNumber, cliReason, cliT, errorLine, secretsCaveat } from '../i18n';
import { err, out, outJson, padDisplay } from '../output';
import { ask } from '../stdin';
import { fileOnly, type CliCommand } from './command';

/**
 * `switchboard import SOURCE [--yes] [--move-secrets]`: servers from another host's config, previewed first. Without
 * --yes a terminal is asked; without a terminal nothing changes. The source file is never edited.
 */
export const importCommand: CliCommand = {
  name: 'import',
  check: (args) => (args.positionals.length !== 1 ? cliT('cli.importNeedsSource') : undefined),
  host: fileOnly,
  async run(host, args) {
    const source = args.positionals[0] ?? '';
    let preview;
    try {
      preview = await host.api['config:import-preview']({ source });
    } catch (error) {
      err(`switchboard: ${errorLine(error)}`);
      return 2;
    }
    const mark = { new: '+', same: '=', conflict: '!' } as const;
    out(cliT('cliOut.import.from', { file: preview.file }));
    for (const c of preview.servers) {
      const note = c.invalid
        ? cliT('cliOut.import.cannotImport', { reason: cliReason(c.invalid, c.invalidInfo) })
        : c.status === 'new'
          ? cliT('cliOut.import.new')
          : c.status === 'same'
            ? cliT('cliOut.import.same')
            : cliT('cliOut.import.conflict');
      const secretLooking = c.secretKeys.length ? cliT('cliOut.import.secretLooking', { keys: c.secretKeys.join(', ') }) : '';
      out(`  ${c.invalid ? 'x' : mark[c.status]} ${padDisplay(c.name, 24)} ${note}${secretLooking}`);
    }
    const addable = preview.servers.filter((c) => !c.invalid && c.status === 'new').map((c) => c.name);
    const conflicts = preview.servers.filter((c) => !c.invalid && c.status === 'conflict').map((c) => c.name);
    let names = addable;
    let overwrite: string[] = [];
    if (!args.yes) {
      if (!process.stdin.isTTY) {
        const skip = conflicts.length ? cliT('cliOut.import.skipConflicts', { conflicts: cliNumber(conflicts.length) }) : '';
        out(cliT('cliOut.import.nothingChanged', { added: cliNumber(addable.length), conflicts: skip }));
        return 0;
      }
      const answer = (await ask(cliT('cliOut.import.askAdd', { added: cliNumber(addable.length) }))).toLowerCase();
      if (answer !== 'y' && answer !== 'yes') names = [];
      for (const name of conflicts) {
        if ((await ask(cliT('cliOut.import.askOverwrite', { name }))).toLowerCase().startsWith('y')) overwrite.push(name);
      }
      names = [...names, ...overwrite];
    } else overwrite = [];
    const moveSecrets = args.moveSecrets;
    const result = await host.api['config:import-apply']({ source, names: [...names, ...(args.yes ? conflicts : [])], overwrite, moveSecrets });
    if (args.json) outJson(result);
    else {
      const replaced = result.replaced.length ? cliT('cliOut.import.replaced', { names: result.replaced.join(', ') }) : '';
      out(cliT('cliOut.import.added', { names: result.added.join(', ') || cliT('cliOut.none'), replaced }));
      for (const s of result.skipped) out(cliT('cliOut.import.skipped', { name: s.name, reason: cliReason(s.reason, s.reasonInfo) }));
      if (result.secretsStored.length) out(cliT('cliOut.import.secretsStored', { names: result.secretsStored.join(', ') }));
      const warning = secretsCaveat((await host.api['app:info']()).secrets);
      if (result.secretsStored.length && warning) err(cliT('cliOut.note', { note: warning }));
    }
    out(cliT('cliOut.import.sourceKept', { path: host.configPath }));
    return 0;
  },
};
