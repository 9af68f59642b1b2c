import type { SandboxInfo, ServerView } from '../../../src-shared/host-api';
import { useT } from '../../i18n';
import { diagnosticReason } from './diagnostics';

/** What the child was started with: command, args, cwd, environment variable *names* and where each came from. */
export function LaunchDetails({ server }: { server: ServerView }) {
  const launch = server.launch;
  const t = useT();
  if (!launch && server.pid === undefined && !server.logFile) return null;
  return (
    <details className="stderr launch" data-testid="server-launch">
      <summary>{t('launch.summary')}</summary>
      <dl>
        {launch && (
          <>
            <dt>{t('fields.command')}</dt>
            <dd>
              <code>{launch.command}</code>
            </dd>
            {launch.args.length > 0 && (
              <>
                <dt>{t('fields.args')}</dt>
                <dd>
                  <code>{launch.args.join(' ')}</code>
                </dd>
              </>
            )}
            <dt>{t('fields.cwd')}</dt>
            <dd>
              <code>{launch.cwd}</code>
            </dd>
          </>
        )}
        {launch?.sandbox && (
          <>
            <dt>{t('fields.sandbox')}</dt>
            <dd data-testid="server-sandbox">
              <SandboxText sandbox={launch.sandbox} />
            </dd>
          </>
        )}
        {server.pid !== undefined && (
          <>
            <dt>{t('fields.pid')}</dt>
            <dd>
              <code>{server.pid}</code>
            </dd>
          </>
        )}
        {server.logFile && (
          <>
            <dt>{t('fields.log')}</dt>
            <dd>
              <code>{server.logFile}</code>
            </dd>
          </>
        )}
        {launch && launch.env.length > 0 && (
          <>
            <dt>{t('fields.env')}</dt>
            <dd className="env-names">
              {launch.env.map((v) => (
                <span key={v.name} className={`env-name env-${v.source}`} title={t('launch.from', { source: t(`launch.source.${v.source}`) })}>
                  {v.name}
                </span>
              ))}
            </dd>
          </>
        )}
      </dl>
    </details>
  );
}

/** The sandbox in force: what the server may read and write beyond the read-only system, and whether it has a network. */
function SandboxText({ sandbox }: { sandbox: SandboxInfo }) {
  const t = useT();
  if (sandbox.kind === 'unavailable')
    return (
      <span className="status-text-error">
        {t('launch.sandboxUnavailable', {
          reason: sandbox.reason !== undefined ? diagnosticReason('sandbox', sandbox.reason, sandbox.reasonInfo) : t('launch.noReason'),
        })}
      </span>
    );
  return (
    <span>
      {t('launch.sandbox', {
        kind: sandbox.kind,
        read: sandbox.read.length ? sandbox.read.join(', ') : '-',
        write: sandbox.write.length ? sandbox.write.join(', ') : '-',
        network: sandbox.network ? t('launch.on') : t('launch.off'),
      })}
    </span>
  );
}
