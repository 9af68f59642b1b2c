import { useId, useRef, useState, type ClipboardEvent, type FormEvent } from 'react';
import { describeError } from '../../host/bridge-client';
import { useApp } from '../../store/useApp';
import {
  emptyForm,
  entryFromForm,
  formFromEntry,
  splitCommandField,
  type FormErrors,
  type RemoteTransport,
  type SamplingMode,
  type ServerFormState,
} from './entry-form';
import { protocolVersionChoices, type ProtocolVersionChoice } from '../../../src-shared/schemas/config';
import { ArgsList, KeyValueTable } from './KeyValueTable';
import { RootsList } from './RootsList';
import { SandboxFields } from './SandboxFields';
import { useT } from '../../i18n';
import './config.css';

interface ServerFormProps {
  /** The server being edited, or undefined to add one. */
  name: string | undefined;
  /** Its entry as written in the file. */
  original: Record<string, unknown> | undefined;
  /** Every configured server's name (for the uniqueness check). */
  names: readonly string[];
  onDone(savedName?: string): void;
}

/** Add or edit (and rename) one server. Keys the form does not show are kept as they were. */
export function ServerForm({ name, original, names, onDone }: ServerFormProps) {
  const [form, setForm] = useState<ServerFormState>(() => (name !== undefined && original ? formFromEntry(name, original) : emptyForm()));
  const [errors, setErrors] = useState<FormErrors>({});
  const t = useT();
  const [saveError, setSaveError] = useState<string | undefined>(undefined);
  const [saving, setSaving] = useState(false);
  const upsertServer = useApp((s) => s.upsertServer);
  const id = useId();
  const patch = (p: Partial<ServerFormState>): void => setForm((f) => ({ ...f, ...p }));
  const adding = name === undefined;
  // Split only what the person typed or pasted: a loaded entry whose program path has unquoted spaces stays as it is.
  const commandEdited = useRef(false);
  const [splitNote, setSplitNote] = useState<number | undefined>(undefined);

  /** A command line in Command becomes the program plus arguments, visibly (the Arguments list fills in). */
  const splitCommand = (state: ServerFormState, replaceArgs = false): ServerFormState => {
    commandEdited.current = false;
    const split = splitCommandField(state, replaceArgs);
    if (!split) return state;
    if (split.moved > 0) setSplitNote(split.moved);
    return split.form;
  };

  const pasteCommand = (event: ClipboardEvent<HTMLInputElement>): void => {
    const text = event.clipboardData.getData('text/plain');
    if (!/[\s'"\\]/.test(text)) return;
    event.preventDefault();
    const input = event.currentTarget;
    const start = input.selectionStart ?? input.value.length;
    const end = input.selectionEnd ?? start;
    const command = input.value.slice(0, start) + text + input.value.slice(end);
    const whole = start === 0 && end === input.value.length;
    const next = splitCommand({ ...form, command }, whole);
    // An unclosed quote stays in the field for the person to finish; a text input holds no line breaks.
    setForm(next.command === command ? { ...next, command: command.replace(/[\r\n]+/g, ' ') } : next);
  };

  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    const current = commandEdited.current && form.kind === 'stdio' ? splitCommand(form) : form;
    if (current !== form) setForm(current);
    const result = entryFromForm(
      current,
      original,
      names.filter((n) => n !== name),
    );
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    setErrors({});
    setSaveError(undefined);
    setSaving(true);
    try {
      await upsertServer(result.name, result.entry, !adding && name !== result.name ? name : undefined);
      onDone(result.name);
    } catch (e) {
      setSaveError(describeError(e).message);
    } finally {
      setSaving(false);
    }
  };

  const field = (key: keyof FormErrors): { 'aria-invalid'?: true; 'aria-describedby'?: string } =>
    errors[key] ? { 'aria-invalid': true, 'aria-describedby': `${id}-${key}-error` } : {};
  const fieldError = (key: keyof FormErrors) =>
    errors[key] && (
      <p className="form-error" id={`${id}-${key}-error`} data-testid={`form-error-${key}`}>
        {errors[key]}
      </p>
    );

  return (
    <form
      className="server-form"
      aria-label={adding ? t('serverForm.add') : t('serverForm.edit', { server: name })}
      data-testid="server-form"
      onSubmit={(e) => void submit(e)}
      noValidate
    >
      <h2>{adding ? t('serverForm.add') : t('serverForm.edit', { server: name })}</h2>

      <div className="form-grid">
        <label className="field" htmlFor={`${id}-name`}>
          <span>{t('serverForm.name')}</span>
        </label>
        <div>
          <input
            id={`${id}-name`}
            type="text"
            data-testid="form-name"
            spellCheck={false}
            value={form.name}
            onChange={(e) => patch({ name: e.target.value })}
            {...field('name')}
          />
          {!adding && form.name.trim() !== name && form.name.trim() !== '' && <p className="field-hint">{t('serverForm.renames')}</p>}
          {fieldError('name')}
        </div>

        <span className="field">{t('serverForm.kind')}</span>
        <div className="segmented" role="radiogroup" aria-label={t('serverForm.kind')}>
          {(['stdio', 'remote'] as const).map((kind) => (
            <label key={kind} className={form.kind === kind ? 'selected' : ''}>
              <input
                type="radio"
                name={`${id}-kind`}
                value={kind}
                data-testid={`form-kind-${kind}`}
                checked={form.kind === kind}
                onChange={() => patch({ kind })}
              />
              {kind === 'stdio' ? t('serverForm.stdio') : t('serverForm.remote')}
            </label>
          ))}
        </div>

        {form.kind === 'stdio' ? (
          <>
            <label className="field" htmlFor={`${id}-command`}>
              <span>{t('serverForm.command')}</span>
            </label>
            <div>
              <input
                id={`${id}-command`}
                type="text"
                data-testid="form-command"
                spellCheck={false}
                placeholder={t('serverForm.commandPlaceholder')}
                value={form.command}
                onChange={(e) => {
                  commandEdited.current = true;
                  setSplitNote(undefined);
                  patch({ command: e.target.value });
                }}
                onPaste={pasteCommand}
                onBlur={() => {
                  if (commandEdited.current) setForm(splitCommand(form));
                }}
                {...field('command')}
              />
              {splitNote !== undefined && (
                <p className="field-hint" data-testid="form-command-split">
                  {t('serverForm.commandSplit', { count: splitNote })}
                </p>
              )}
              {fieldError('command')}
            </div>
            <span />
            <ArgsList rows={form.args} onChange={(args) => patch({ args })} />
            <span />
            <KeyValueTable
              label={t('serverForm.environment')}
              noun={t('serverForm.variable')}
              rows={form.env}
              onChange={(env) => patch({ env })}
              server={form.name.trim()}
              testId="form-env"
              {...(errors.env ? { error: errors.env } : {})}
            />
            <label className="field" htmlFor={`${id}-cwd`}>
              <span>{t('serverForm.workingFolder')}</span>
            </label>
            <div>
              <input
                id={`${id}-cwd`}
                type="text"
                data-testid="form-cwd"
                spellCheck={false}
                placeholder={t('serverForm.cwdPlaceholder')}
                value={form.cwd}
                onChange={(e) => patch({ cwd: e.target.value })}
              />
            </div>
            <span />
            <SandboxFields
              state={form}
              onChange={patch}
              idPrefix={id}
              errors={{ ...(errors.sandboxRead ? { read: errors.sandboxRead } : {}), ...(errors.sandboxWrite ? { write: errors.sandboxWrite } : {}) }}
            />
          </>
        ) : (
          <>
            <label className="field" htmlFor={`${id}-url`}>
              <span>{t('fields.url')}</span>
            </label>
            <div>
              <input
                id={`${id}-url`}
                type="text"
                data-testid="form-url"
                spellCheck={false}
                placeholder="https://mcp.example.com/mcp"
                value={form.url}
                onChange={(e) => patch({ url: e.target.value })}
                {...field('url')}
              />
              {fieldError('url')}
            </div>
            <label className="field" htmlFor={`${id}-transport`}>
              <span>{t('serverForm.transport')}</span>
            </label>
            <div>
              <select
                id={`${id}-transport`}
                data-testid="form-transport"
                value={form.transport}
                onChange={(e) => patch({ transport: e.target.value as RemoteTransport })}
              >
                <option value="auto">{t('serverForm.transportAuto')}</option>
                <option value="http">{t('serverForm.transportHttp')}</option>
                <option value="sse">{t('serverForm.transportSse')}</option>
              </select>
            </div>
            <span />
            <KeyValueTable
              label={t('serverForm.headers')}
              noun={t('serverForm.header')}
              rows={form.headers}
              onChange={(headers) => patch({ headers })}
              server={form.name.trim()}
              testId="form-headers"
              {...(errors.headers ? { error: errors.headers } : {})}
            />
          </>
        )}

        <label className="field" htmlFor={`${id}-timeout`}>
          <span>{t('serverForm.timeout')}</span>
        </label>
        <div>
          <input
            id={`${id}-timeout`}
            type="number"
            min={1}
            step={1000}
            data-testid="form-timeout"
            placeholder={t('serverForm.timeoutPlaceholder')}
            value={form.timeout}
            onChange={(e) => patch({ timeout: e.target.value })}
            {...field('timeout')}
          />
          {fieldError('timeout')}
        </div>

        <label className="field" htmlFor={`${id}-protocol`}>
          <span>{t('serverForm.protocolVersion')}</span>
        </label>
        <div>
          <select
            id={`${id}-protocol`}
            data-testid="form-protocol-version"
            value={form.protocolVersion}
            aria-describedby={`${id}-protocol-hint`}
            onChange={(e) => patch({ protocolVersion: e.target.value as ProtocolVersionChoice })}
          >
            {protocolVersionChoices.map((choice) => (
              <option key={choice} value={choice}>
                {choice === 'auto' ? t('serverForm.protocolAuto') : choice}
              </option>
            ))}
          </select>
          <p className="muted field-hint" id={`${id}-protocol-hint`}>
            {t('serverForm.protocolHint')}
          </p>
        </div>

        <label className="field" htmlFor={`${id}-sampling`}>
          <span>{t('serverForm.sampling')}</span>
        </label>
        <div className="form-inline">
          <select
            id={`${id}-sampling`}
            data-testid="form-sampling"
            value={form.samplingMode}
            onChange={(e) => patch({ samplingMode: e.target.value as SamplingMode })}
          >
            <option value="ask">{t('serverForm.samplingAsk')}</option>
            <option value="allow">{t('serverForm.samplingAllow')}</option>
            <option value="never">{t('serverForm.samplingNever')}</option>
          </select>
          <input
            type="number"
            min={1}
            step={1}
            aria-label={t('serverForm.perMinuteLabel')}
            data-testid="form-sampling-per-minute"
            placeholder={t('serverForm.perMinutePlaceholder')}
            value={form.samplingPerMinute}
            onChange={(e) => patch({ samplingPerMinute: e.target.value })}
            {...field('sampling')}
          />
          {fieldError('sampling')}
        </div>

        <span />
        <RootsList rows={form.roots} onChange={(roots) => patch({ roots })} errorId={`${id}-roots-error`} {...(errors.roots ? { error: errors.roots } : {})} />

        <span />
        <label className="field-check-inline">
          <input type="checkbox" data-testid="form-disabled" checked={form.disabled} onChange={(e) => patch({ disabled: e.target.checked })} />
          {t('serverForm.disabled')}
        </label>
      </div>

      {saveError && (
        <div className="form-error form-save-error" role="alert" data-testid="form-save-error">
          {saveError}
        </div>
      )}
      <div className="form-actions">
        <button type="button" className="btn" onClick={() => onDone()}>
          {t('common.cancel')}
        </button>
        <button type="submit" className="btn btn-primary" data-testid="form-save" disabled={saving}>
          {saving ? t('serverForm.saving') : adding ? t('serverForm.addServer') : t('common.save')}
        </button>
      </div>
    </form>
  );
}
