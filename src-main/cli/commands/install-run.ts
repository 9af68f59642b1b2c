import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { Writable } from 'node:stream';
import type { InstallInput, InstallNote, InstallPlanView, InstallResultView } from '../../../src-shared/contract/install';
import { CoreError, messageOf } from '../../core/errors';
import type { Host } from '../../core/host';
import { Installer } from '../../core/install/installer';
import { resolveRegistryInstall, type ResolvedRegistryInstall } from '../../core/install/registry-install';
import { RegistryClient, registryServerView } from '../../core/install/registry-client';
import type { CliArgs } from '../args';
import { err, firstLine, out, outJson, padDisplay, printTable, visibleControls } from '../output';
import { canAskOn } from '../terminal';
import { cliDate, cliLanguage, cliT, errorLine, secretsCaveat } from '../i18n';
import { installNoteText } from '../../../src-shared/i18n';

/*
 * One-step installs from the CLI: `registry search TERM`, `registry add NAME`, `install FILE.mcpb`, `uninstall NAME`.
 * The full command (or URL) is printed before anything is added; values come from `--set KEY=VALUE` or, on a
 * terminal, are asked for (secret ones without echo); without --yes a terminal confirms, and without a terminal
 * nothing is added. The app still asks before it starts what was added.
 */

const io = { stdin: process.stdin, stderr: process.stderr };

/** Exit code of a failed step: 2 for what the person can fix in the command line or file, 1 otherwise. */
function failure(error: unknown): number {
  err(`switchboard: ${errorLine(error)}`);
  return error instanceof CoreError && (error.code === 'invalid-argument' || error.code === 'unknown-server') ? 2 : 1;
}

async function question(text: string, secret: boolean): Promise<string | undefined> {
  let muted = false;
  const output = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      if (!muted) process.stderr.write(chunk);
      callback();
    },
  });
  const readline = createInterface({ input: process.stdin, output, terminal: true });
  let closed = false;
  readline.once('close', () => (closed = true));
  try {
    const answer = readline.question(visibleControls(text));
    muted = secret;
    return (await answer).trim();
  } catch {
    return undefined;
  } finally {
    if (secret) process.stderr.write('\n');
    if (!closed) readline.close();
  }
}

export function parseSets(sets: readonly string[]): Record<string, string> {
  const values: Record<string, string> = {};
  for (const set of sets) {
    const at = set.indexOf('=');
    if (at <= 0) throw new CoreError('invalid-argument', cliT('cliOut.install.setNeedsKeyValue', { set }), { data: { set } });
    values[set.slice(0, at)] = set.slice(at + 1);
  }
  return values;
}

function describeInput(input: InstallInput): string {
  const parts = [input.required ? cliT('cliOut.install.required') : cliT('cliOut.install.optional')];
  if (input.secret) parts.push(cliT('cliOut.install.secretKeptAs', { name: input.secretName ?? input.key }));
  if (input.default !== undefined) parts.push(cliT('cliOut.install.default', { value: input.default }));
  if (input.choices) parts.push(cliT('cliOut.install.oneOf', { choices: input.choices.join(', ') }));
  return `  ${padDisplay(input.key, 20)} ${input.title !== input.key ? `${input.title}: ` : ''}${input.description ?? ''}${cliT('cliOut.requests.hint', { parts: parts.join(cliT('cliOut.semicolon')) })}`;
}

/**
 * A plan's notes in the CLI's language: in English the host's own text; otherwise `bundle.note.<code>` filled from
 * the note's data, a date in the language's own form.
 */
export function planNotes(plan: Pick<InstallPlanView, 'notes' | 'notices'>): string[] {
  if (cliLanguage() === 'en') return plan.notes;
  return plan.notices.map((note: InstallNote) => installNoteText(cliT, note, cliDate));
}

export function printPlan(plan: InstallPlanView, configPath: string): void {
  out(`${plan.title} ${plan.version ?? ''} — ${plan.origin}`.trim());
  if (plan.description) out(`  ${firstLine(plan.description)}`);
  out(cliT('cliOut.install.adds', { name: plan.name, path: configPath }));
  out(`  ${plan.commandLine}`);
  for (const note of planNotes(plan)) out(cliT('cliOut.note', { note }));
  if (plan.inputs.length) {
    out(cliT('cliOut.install.values'));
    for (const input of plan.inputs) out(describeInput(input));
  }
}

/** The values: --set first, then (on a terminal) asked for; undefined when something required cannot be had. */
async function collectValues(plan: InstallPlanView, args: CliArgs): Promise<Record<string, string> | undefined> {
  const values = parseSets(args.set);
  const tty = canAskOn(io);
  const missing: string[] = [];
  for (const input of plan.inputs) {
    if (values[input.key] !== undefined) continue;
    if (!tty) {
      if (input.required && input.default === undefined) missing.push(input.key);
      continue;
    }
    const hint =
      input.default !== undefined
        ? ` [${input.default}]`
        : input.choices
          ? cliT('cliOut.requests.hint', { parts: input.choices.join('/') })
          : input.required
            ? ''
            : cliT('cliOut.install.optionalHint');
    const answer = await question(`${input.title}${input.secret ? cliT('cliOut.install.secretHint') : ''}${hint}: `, input.secret);
    if (answer === undefined) return undefined;
    if (answer !== '') values[input.key] = answer;
  }
  if (missing.length) {
    err(
      `switchboard: ${cliT('cliOut.install.missing', { name: plan.name, keys: missing.join(', '), sets: missing.map((k) => `--set ${k}=VALUE`).join(' ') })}`,
    );
    return undefined;
  }
  return values;
}

/** Confirmation: --yes, else a terminal's yes; without one nothing is added. */
async function confirmed(args: CliArgs, ask: string): Promise<boolean> {
  if (args.yes) return true;
  if (!canAskOn(io)) {
    out(cliT('cliOut.install.nothingAddedYes'));
    return false;
  }
  const answer = ((await question(ask, false)) ?? '').toLowerCase();
  if (answer === 'y' || answer === 'yes') return true;
  out(cliT('cliOut.install.nothingAdded'));
  return false;
}

function printResult(result: InstallResultView, args: CliArgs, host: Host): void {
  if (args.json) {
    outJson(result);
    return;
  }
  out(
    cliT('cliOut.install.added', {
      name: result.name,
      path: host.configPath,
      files: result.installedAt ? cliT('cliOut.install.files', { dir: result.installedAt }) : '',
    }),
  );
  if (result.secretsStored.length) out(cliT('cliOut.install.secretsStored', { names: result.secretsStored.join(', ') }));
  if (result.needsApproval) out(cliT('cliOut.install.needsApproval'));
  const caveat = secretsCaveat(host.secrets);
  if (result.secretsStored.length && caveat) err(cliT('cliOut.note', { note: caveat }));
}

function installerOf(host: Host): Installer {
  return new Installer({ store: host.config, secrets: host.secrets, dataDir: host.dataDir });
}

async function registryCommand(host: Host, args: CliArgs): Promise<number> {
  const [action, term] = args.positionals;
  let client: RegistryClient;
  try {
    const registry = args.registry ?? (process.env.SWITCHBOARD_REGISTRY || undefined);
    client = new RegistryClient(registry !== undefined ? { registry } : {});
  } catch (error) {
    return failure(error);
  }
  if (action === 'search') {
    let page;
    try {
      page = await client.search(term, args.cursor);
    } catch (error) {
      return failure(error);
    }
    const views = page.servers.map((s) => registryServerView(s));
    if (args.json) {
      outJson({ registry: client.base, servers: views, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) });
      return 0;
    }
    printTable(
      views.map((v) => [v.name, v.version, v.kinds.join(',') || '-', v.status, firstLine(v.description)]),
      [cliT('cliOut.table.name'), cliT('cliOut.table.version'), cliT('cliOut.table.kinds'), cliT('cliOut.table.status'), cliT('cliOut.table.description')],
    );
    if (views.length === 0) err(cliT('cliOut.install.noMatch', { registry: client.base, term: term ?? '' }));
    if (page.nextCursor) err(cliT('cliOut.install.more', { term: term ?? '""', cursor: page.nextCursor }));
    err(cliT('cliOut.install.addOne'));
    return 0;
  }
  // add
  let resolved: ResolvedRegistryInstall;
  try {
    resolved = await resolveRegistryInstall(client, term ?? '', {
      ...(args.name !== undefined ? { name: args.name } : {}),
      ...(args.use !== undefined ? { use: args.use } : {}),
      dataDir: host.dataDir,
    });
  } catch (error) {
    return failure(error);
  }
  const { plan } = resolved;
  if (!args.json) printPlan(plan, host.configPath);
  const values = await collectValues(plan, args);
  if (values === undefined) return 2;
  if (!(await confirmed(args, cliT('cliOut.install.askAdd', { name: plan.name })))) return 0;
  try {
    printResult(await installerOf(host).addRegistry(resolved, values), args, host);
    return 0;
  } catch (error) {
    return failure(error);
  }
}

async function installCommand(host: Host, args: CliArgs): Promise<number> {
  const file = args.positionals[0] ?? '';
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    err(`switchboard: ${cliT('cliOut.install.cannotRead', { file, error: messageOf(error) })}`);
    return 2;
  }
  const installer = installerOf(host);
  const options = { fileLabel: basename(file), ...(args.name !== undefined ? { name: args.name } : {}) };
  let plan: InstallPlanView;
  try {
    plan = await installer.planBundle(bytes, options);
  } catch (error) {
    return failure(error);
  }
  if (!args.json) printPlan(plan, host.configPath);
  const values = await collectValues(plan, args);
  if (values === undefined) return 2;
  if (!(await confirmed(args, cliT('cliOut.install.askInstall', { name: plan.name })))) return 0;
  try {
    printResult(await installer.installBundle(bytes, values, options), args, host);
    return 0;
  } catch (error) {
    return failure(error);
  }
}

async function uninstallCommand(host: Host, args: CliArgs): Promise<number> {
  const name = args.positionals[0] ?? '';
  try {
    const result = await installerOf(host).uninstall(name);
    if (args.json) outJson({ name, ...result });
    else {
      out(
        cliT('cliOut.install.removed', {
          name,
          path: host.configPath,
          files: result.removedFiles ? cliT('cliOut.install.removedFiles', { dir: result.removedFiles }) : '',
        }),
      );
      if (result.secretsDeleted.length) out(cliT('cliOut.install.secretsDeleted', { names: result.secretsDeleted.join(', ') }));
    }
    return 0;
  } catch (error) {
    return failure(error);
  }
}

export const installCommands: Record<string, (host: Host, args: CliArgs) => Promise<number>> = {
  registry: registryCommand,
  install: installCommand,
  uninstall: uninstallCommand,
};

/** A usage problem of these commands, or undefined. */
export function installUsageProblem(args: CliArgs): string | undefined {
  if (args.command === 'registry') {
    const [action, term, extra] = args.positionals;
    if (action !== 'search' && action !== 'add') return cliT('cli.registryNeeds');
    if (action === 'add' && (term === undefined || extra !== undefined)) return cliT('cli.registryAddNeeds');
    if (action === 'search' && extra !== undefined) return cliT('cli.registrySearchOne');
  }
  if (args.command === 'install' && args.positionals.length !== 1) return cliT('cli.installNeeds');
  if (args.command === 'uninstall' && args.positionals.length !== 1) return cliT('cli.uninstallNeeds');
  return undefined;
}
