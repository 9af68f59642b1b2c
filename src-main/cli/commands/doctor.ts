import type { AuthView, ConsentView, ContainmentInfo, SandboxInfo, ServerView } from '../../../src-shared/host-api';
import { cliDiagnostic, cliNumber, cliReason, cliT, errorLine, statusWord } from '../i18n';
import { displayWidth, err, out, outJson, padDisplay } from '../output';
import { firstServer, oneShot, type CliCommand } from './command';

/**
 * `switchboard doctor [SERVER]`, per server: what it is started with (env names only), whether it connects, how fast,
 * and its stderr tail. Exit 1 when an enabled server is not ready.
 */
export const doctor: CliCommand = {
  name: 'doctor',
  host: oneShot,
  servers: firstServer,
  async run(host, args) {
    const only = args.positionals[0];
    try {
      await host.settled(only);
    } catch (error) {
      err(errorLine(error));
      return 2;
    }
    const info = await host.api['app:info']();
    const views = (await host.api['servers:list']()).filter((v) => only === undefined || v.name === only);
    const failed = views.filter((v) => !v.disabled && v.status !== 'ready');
    if (args.json) {
      outJson({ configPath: info.configPath, logsDir: info.logsDir, servers: views.map(doctorRecord) });
      return failed.length > 0 ? 1 : 0;
    }
    out(cliT('cliOut.doctor.config', { path: info.configPath }));
    out(cliT('cliOut.doctor.logs', { path: info.logsDir }));
    const unapproved = views.filter((v) => v.consent !== undefined).map((v) => v.name);
    if (unapproved.length) out(cliT('cliOut.doctor.unapproved', { names: unapproved.join(', ') }));
    // `  label:  value`, the values in one column (containment's and protocol's longer labels only push their own line).
    const labels = {
      command: cliT('cliOut.doctor.commandLabel'),
      args: cliT('cliOut.doctor.argsLabel'),
      cwd: cliT('cliOut.doctor.cwdLabel'),
      env: cliT('cliOut.doctor.envLabel'),
      url: cliT('cliOut.doctor.urlLabel'),
      signIn: cliT('cliOut.doctor.signInLabel'),
      consent: cliT('cliOut.doctor.consentLabel'),
      status: cliT('cliOut.doctor.statusLabel'),
      error: cliT('cliOut.doctor.errorLabel'),
      log: cliT('cliOut.doctor.logLabel'),
      sandbox: cliT('cliOut.doctor.sandboxLabel'),
    };
    const labelWidth = Math.max(...Object.values(labels).map(displayWidth));
    const line = (label: string, value: string): void => out(`  ${padDisplay(label, labelWidth)} ${value}`);
    for (const v of views) {
      const ok = v.disabled ? cliT('cliOut.doctor.disabled') : v.status === 'ready' ? cliT('cliOut.doctor.ok') : cliT('cliOut.doctor.fail');
      out('');
      out(`[${ok}] ${v.name} (${v.transport})`);
      if (v.launch) {
        line(labels.command, v.launch.command);
        line(labels.args, JSON.stringify(v.launch.args));
        line(labels.cwd, v.launch.cwd);
        const bySource = (source: string): string =>
          v.launch?.env
            .filter((e) => e.source === source)
            .map((e) => e.name)
            .join(' ') || '-';
        line(labels.env, cliT('cliOut.doctor.env', { defaults: bySource('default'), allowList: bySource('allow-list'), serverEnv: bySource('server-env') }));
        if (v.launch.containment) line(cliT('cliOut.doctor.containmentLabel'), containmentText(v.launch.containment));
        if (v.launch.sandbox) line(labels.sandbox, sandboxText(v.launch.sandbox));
      } else if (v.transport !== 'stdio') line(labels.url, v.target);
      if (v.auth) line(labels.signIn, authText(v.auth, v.status));
      if (v.consent) {
        const why = v.consent.reason === 'changed' ? cliT('cliOut.doctor.consentChanged') : cliT('cliOut.doctor.consentNew');
        line(labels.consent, cliT('cliOut.doctor.consent', { why, more: v.consent.enforced ? '' : cliT('cliOut.doctor.consentCliRuns') }));
        for (const detail of consentDetails(v.consent)) line('', detail);
      }
      if (!v.disabled) line(cliT('cliOut.doctor.protocolLabel'), protocolText(v));
      const protocol = v.protocolVersion ? cliT('cliOut.doctor.protocol', { version: v.protocolVersion, era: v.era ?? '?' }) : '';
      const ready = v.readyMs !== undefined && v.status === 'ready' ? cliT('cliOut.doctor.readyIn', { ms: cliNumber(v.readyMs) }) : '';
      line(labels.status, cliT('cliOut.doctor.status', { status: statusWord(v.status), protocol, ready, tools: cliNumber(v.tools.length) }));
      if (v.error) line(labels.error, cliReason(v.error, v.errorInfo).replace(/\n/g, `\n${' '.repeat(labelWidth + 3)}`));
      const tail = v.stderrTail.slice(-10);
      if (tail.length) {
        out(`  ${cliT('cliOut.doctor.stderr')}`);
        for (const text of tail) out(`    ${text}`);
      }
      if (v.logFile) line(labels.log, v.logFile);
    }
    return failed.length > 0 ? 1 : 0;
  },
};
/** What an unapproved entry's subject adds to its launch: what changed, references by name, loader variables, sampling. */
function consentDetails(c: ConsentView): string[] {
  const s = c.subject;
  const lines: string[] = [];
  if (c.changed?.length) lines.push(cliT('cliOut.doctor.consentParts', { parts: c.changed.join(', ') }));
  const refs = Object.entries(s.references ?? {}).map(([name, list]) => `${name} <- ${list.join(' ')}`);
  if (refs.length) lines.push(cliT('cliOut.doctor.consentReferences', { refs: refs.join('; ') }));
  if ('command' in s && s.loader)
    lines.push(
      cliT('cliOut.doctor.consentLoader', {
        vars: Object.entries(s.loader)
          .map(([name, value]) => `${name}=${value}`)
          .join('; '),
      }),
    );
  if (s.sampling) {
    const limit =
      s.sampling.mode === 'never'
        ? ''
        : s.sampling.perMinute !== undefined
          ? cliT('cliOut.doctor.consentPerMinute', { count: cliNumber(s.sampling.perMinute) })
          : cliT('cliOut.doctor.consentNoLimit');
    lines.push(cliT('cliOut.doctor.consentSampling', { mode: s.sampling.mode, limit }));
  }
  return lines;
}

/**
 * A remote server's OAuth state for doctor (never a token: the view has none). Signed out with no authorization
 * server found and no sign-in waited for: the server never asked (a local HTTP server, say), which is what is said.
 */
function authText(a: AuthView, status: ServerView['status']): string {
  if (a.state === 'signed-out' && a.issuerHost === undefined && status !== 'needs-login') return cliT('cliOut.doctor.authNotAsked');
  const at = a.issuerHost !== undefined ? cliT('cliOut.doctor.authAt', { host: a.issuerHost }) : '';
  if (a.state === 'signing-in')
    return cliT('cliOut.doctor.authWaiting', {
      where: a.authorizationHost !== undefined ? cliT('cliOut.doctor.authWhere', { host: a.authorizationHost }) : '',
    });
  if (a.state === 'signed-in') {
    const expiry =
      a.expiresAt === undefined
        ? ''
        : a.expiresAt > Date.now()
          ? cliT('cliOut.doctor.authExpiresIn', { minutes: cliNumber(Math.round((a.expiresAt - Date.now()) / 60_000)) })
          : cliT('cliOut.doctor.authExpired');
    const more = a.stepUpScopes?.length ? cliT('cliOut.doctor.authMore', { scopes: a.stepUpScopes.join(' ') }) : '';
    const scopes = a.grantedScopes?.length ? cliT('cliOut.doctor.authScopes', { scopes: a.grantedScopes.join(' ') }) : '';
    return cliT('cliOut.doctor.authSignedIn', { at, scopes, expiry, more });
  }
  return cliT('cliOut.doctor.authNotSignedIn', { at, asks: a.scopes?.length ? cliT('cliOut.doctor.authAsks', { scopes: a.scopes.join(' ') }) : '' });
}

/** The revision pinned in the config, or `auto` with what it negotiated (and why it fell back, if it did). */
function protocolText(v: ServerView): string {
  if (v.protocolPin !== undefined) return cliT('cliOut.doctor.protocolPinned', { version: v.protocolPin });
  if (v.protocolVersion === undefined) return cliT('cliOut.doctor.protocolPending');
  if (v.eraFallback !== undefined) return cliT('cliOut.doctor.protocolFallback', { version: v.protocolVersion, method: v.eraFallback });
  return cliT('cliOut.doctor.protocolAuto', { version: v.protocolVersion });
}

function containmentText(c: ContainmentInfo): string {
  if (c.kind === 'cgroup') return cliT('cliOut.doctor.cgroup', { path: c.path ?? '?' });
  if (c.kind === 'taskkill') return cliT('cliOut.doctor.taskkill');
  return cliT('cliOut.doctor.processGroup', {
    reason: c.reason !== undefined ? cliDiagnostic('containment', c.reason, c.reasonInfo) : cliT('cliOut.doctor.noCgroup'),
  });
}

function sandboxText(s: SandboxInfo): string {
  if (s.kind === 'unavailable')
    return cliT('cliOut.doctor.sandboxUnavailable', { reason: s.reason !== undefined ? cliDiagnostic('sandbox', s.reason, s.reasonInfo) : '?' });
  const read = s.read.length ? s.read.join(', ') : '-';
  const write = s.write.length ? s.write.join(', ') : '-';
  return cliT('cliOut.doctor.sandbox', { kind: s.kind, read, write, network: s.network ? cliT('cliOut.yes') : cliT('cliOut.no') });
}

function doctorRecord(v: ServerView): Record<string, unknown> {
  return {
    name: v.name,
    transport: v.transport,
    status: v.disabled ? 'disabled' : v.status,
    ...(v.launch
      ? {
          command: v.launch.command,
          args: v.launch.args,
          cwd: v.launch.cwd,
          env: v.launch.env,
          containment: v.launch.containment ?? null,
          sandbox: v.launch.sandbox ?? null,
        }
      : { url: v.target }),
    protocolVersion: v.protocolVersion ?? null,
    era: v.era ?? null,
    protocolPin: v.protocolPin ?? 'auto',
    ...(v.eraFallback !== undefined ? { eraFallback: v.eraFallback } : {}),
    approved: v.consent === undefined,
    ...(v.consent ? { consent: { reason: v.consent.reason, ...(v.consent.changed ? { changed: v.consent.changed } : {}), ...v.consent.subject } } : {}),
    readyMs: v.status === 'ready' ? (v.readyMs ?? null) : null,
    tools: v.tools.length,
    ...(v.error !== undefined ? { error: v.error } : {}),
    stderrTail: v.stderrTail.slice(-10),
    ...(v.logFile ? { logFile: v.logFile } : {}),
  };
}
