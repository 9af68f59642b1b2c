import type { ChatRoute } from '../../../src-shared/contract/chat';
import { useApp } from '../../store/useApp';
import { useT } from '../../i18n';

type T = ReturnType<typeof useT>;

/** Where a route's model or endpoint came from, in words. */
function origin(t: T, route: ChatRoute, which: 'model' | 'endpoint'): string {
  const source = which === 'model' ? route.modelSource : route.endpointSource;
  const name = which === 'model' ? 'SWITCHBOARD_MODEL' : (route.endpointEnv ?? '');
  const file = (which === 'model' ? route.modelFile : route.endpointFile) ?? '.env';
  switch (source) {
    case 'flag':
      return t('composer.from.flag');
    case 'settings':
      return t('composer.from.settings');
    case 'env':
      return t('composer.from.env', { name });
    case 'dotenv':
      return t('composer.from.dotenv', { name, file });
    case 'default':
      return which === 'model' ? t('composer.from.modelDefault') : t('composer.from.endpointDefault');
  }
}

/** Under the composer: the provider, model and endpoint new messages go to (where each came from on hover). */
export function ChatRouteLine() {
  const route = useApp((s) => s.providers?.route);
  const t = useT();
  if (!route) return null;
  return (
    <p
      className="chat-route muted"
      data-testid="chat-route"
      data-provider={route.provider}
      data-model={route.model}
      data-endpoint={route.endpoint}
      aria-label={t('composer.routeLabel')}
      title={t('composer.routeTitle', { modelFrom: origin(t, route, 'model'), endpointFrom: origin(t, route, 'endpoint') })}
    >
      {t('composer.route', { provider: t(`providers.names.${route.provider}`), model: route.model, endpoint: route.endpoint })}
    </p>
  );
}

/** Above the composer: a model or endpoint the working folder's `.env` chooses waits for the person's Confirm. */
export function DotenvNotice() {
  const unconfirmed = useApp((s) => s.providers?.unconfirmed);
  const confirm = useApp((s) => s.confirmDotenv);
  const t = useT();
  if (!unconfirmed) return null;
  const values = unconfirmed.choices.map((c) => `${c.name}=${c.value}`).join(', ');
  return (
    <div className="card notice notice-info dotenv-notice" role="note" data-testid="dotenv-notice">
      <p className="notice-message">{t('composer.dotenvHeld', { file: unconfirmed.file, values })}</p>
      <div className="dotenv-notice-actions">
        <button
          type="button"
          className="btn btn-small"
          data-testid="dotenv-confirm"
          onClick={() => void confirm(Object.fromEntries(unconfirmed.choices.map((c) => [c.name, c.value])))}
        >
          {t('composer.dotenvConfirm')}
        </button>
      </div>
    </div>
  );
}
