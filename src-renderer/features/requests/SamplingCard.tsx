import { useId, useState } from 'react';
import type { AcceptContent, PendingRequestView } from '../../../src-shared/host-api';
import { JsonTree } from '../../ui/JsonTree';
import { DeclineButton, RequestButtons, RequestFrame, useAnswering } from './RequestFrame';
import { Trans } from 'react-i18next';
import { useT } from '../../i18n';

type SamplingRequest = Extract<PendingRequestView, { kind: 'sampling' }>;
type SamplingResultRequest = Extract<PendingRequestView, { kind: 'sampling-result' }>;

/** Whether a message's MCP content is text only (so editing its text loses nothing). */
export function isTextOnly(content: unknown): boolean {
  const parts = Array.isArray(content) ? content : [content];
  return parts.every((p) => typeof p === 'object' && p !== null && (p as { type?: unknown }).type === 'text');
}

/**
 * `sampling/createMessage` before anything reaches a model: the messages and system prompt (editable), the model
 * (picked from the chat's providers), maxTokens, the server's model preferences and context; Approve or Decline.
 */
export function SamplingCard({ request }: { request: SamplingRequest }) {
  const { answer, busy } = useAnswering(request.id);
  const { payload } = request;
  const id = useId();
  const t = useT();
  const [texts, setTexts] = useState(() => payload.messages.map((m) => m.text));
  const [system, setSystem] = useState(payload.systemPrompt ?? '');
  const [model, setModel] = useState(payload.model ?? payload.models[0] ?? '');
  const [maxTokens, setMaxTokens] = useState(String(payload.maxTokens));
  const tokens = Number(maxTokens);
  const tokensValid = Number.isInteger(tokens) && tokens >= 1;
  const noModel = payload.models.length === 0;

  const approve = (): void => {
    const content: AcceptContent['sampling'] = {};
    if (model !== '') content.model = model;
    if (system !== (payload.systemPrompt ?? '')) content.systemPrompt = system;
    if (texts.some((t, i) => t !== payload.messages[i]?.text)) content.messages = payload.messages.map((m, i) => ({ role: m.role, text: texts[i] ?? m.text }));
    if (tokens !== payload.maxTokens) content.maxTokens = tokens;
    void answer(request.id, { action: 'accept', content });
  };

  return (
    <RequestFrame request={request}>
      <div className="card-body request-fields">
        <p>
          <Trans i18nKey="sampling.asks" values={{ server: request.server }} components={{ strong: <strong /> }} />
        </p>
        {payload.messages.map((message, index) => {
          // Images and audio cannot be edited as text: such a message is shown, not editable, and goes as it came.
          const editable = isTextOnly(message.content);
          return (
            <div className="field" key={index}>
              <label htmlFor={`${id}-m${index}`}>
                {t('sampling.message', { n: index + 1, role: message.role })}
                {editable ? '' : t('sampling.notOnlyText')}
              </label>
              <textarea
                id={`${id}-m${index}`}
                data-testid="sampling-message"
                readOnly={!editable}
                rows={Math.min(8, Math.max(2, message.text.split('\n').length))}
                value={texts[index] ?? ''}
                onChange={(e) => setTexts((all) => all.map((t, i) => (i === index ? e.target.value : t)))}
              />
            </div>
          );
        })}
        <div className="field">
          <label htmlFor={`${id}-system`}>{t('requestCards.systemPrompt')}</label>
          <textarea
            id={`${id}-system`}
            data-testid="sampling-system"
            rows={2}
            placeholder={t('requestCards.none')}
            value={system}
            onChange={(e) => setSystem(e.target.value)}
          />
        </div>
        <div className="request-row">
          <div className="field">
            <label htmlFor={`${id}-model`}>{t('requestCards.model')}</label>
            {noModel ? (
              <span id={`${id}-model`} className="muted" data-testid="sampling-no-model">
                {t('requestCards.noProvider')}
              </span>
            ) : (
              <select id={`${id}-model`} data-testid="sampling-model" value={model} onChange={(e) => setModel(e.target.value)}>
                {payload.models.map((m) => (
                  <option key={m} value={m}>
                    {m}
                  </option>
                ))}
              </select>
            )}
          </div>
          <div className="field">
            <label htmlFor={`${id}-max`}>{t('requestCards.maxTokens')}</label>
            <input
              id={`${id}-max`}
              data-testid="sampling-max-tokens"
              type="number"
              min={1}
              step={1}
              value={maxTokens}
              aria-invalid={tokensValid ? undefined : true}
              onChange={(e) => setMaxTokens(e.target.value)}
            />
          </div>
        </div>
        <dl className="request-facts">
          <dt>{t('requestCards.context')}</dt>
          <dd data-testid="sampling-include-context">{t(`sampling.context.${payload.includeContext ?? 'none'}`)}</dd>
          {payload.temperature !== undefined && (
            <>
              <dt>{t('requestCards.temperature')}</dt>
              <dd>{payload.temperature}</dd>
            </>
          )}
          {payload.stopSequences && payload.stopSequences.length > 0 && (
            <>
              <dt>{t('requestCards.stopSequences')}</dt>
              <dd>{payload.stopSequences.map((s) => JSON.stringify(s)).join(', ')}</dd>
            </>
          )}
          {payload.tools && payload.tools.length > 0 && (
            <>
              <dt>{t('requestCards.toolsOffered')}</dt>
              <dd>{payload.tools.map((tool) => tool.name).join(', ')}</dd>
            </>
          )}
          {payload.modelPreferences !== undefined && (
            <>
              <dt>{t('requestCards.preferences')}</dt>
              <dd data-testid="sampling-model-preferences">
                <JsonTree value={payload.modelPreferences} openDepth={4} />
              </dd>
            </>
          )}
        </dl>
      </div>
      <RequestButtons label={t('requestCards.answerModel', { server: request.server })}>
        <button type="button" className="btn btn-primary btn-small" data-testid="request-approve" disabled={busy || noModel || !tokensValid} onClick={approve}>
          {t('requestCards.approve')}
        </button>
        <DeclineButton id={request.id} busy={busy} />
      </RequestButtons>
    </RequestFrame>
  );
}

/** The model's answer, shown (and editable) before it goes back to the server: Send or Decline. */
export function SamplingResultCard({ request }: { request: SamplingResultRequest }) {
  const { answer, busy } = useAnswering(request.id);
  const { payload } = request;
  const id = useId();
  const t = useT();
  const [text, setText] = useState(payload.text);
  const send = (): void => void answer(request.id, { action: 'accept', content: text === payload.text ? {} : { text } });
  return (
    <RequestFrame request={request}>
      <div className="card-body request-fields">
        <p>
          <Trans
            i18nKey="sampling.answered"
            values={{ model: payload.model, reason: payload.stopReason ? ` (${payload.stopReason})` : '', server: request.server }}
            components={{ strong: <strong /> }}
          />
        </p>
        <div className="field">
          <label htmlFor={`${id}-text`}>{t('requestCards.answerToSend')}</label>
          <textarea
            id={`${id}-text`}
            data-testid="sampling-result-text"
            rows={Math.min(12, Math.max(3, text.split('\n').length))}
            value={text}
            onChange={(e) => setText(e.target.value)}
          />
        </div>
      </div>
      <RequestButtons label={t('requestCards.sendAnswerQ', { server: request.server })}>
        <button type="button" className="btn btn-primary btn-small" data-testid="request-send" disabled={busy} onClick={send}>
          {t('common.send')}
        </button>
        <DeclineButton id={request.id} busy={busy} />
      </RequestButtons>
    </RequestFrame>
  );
}
