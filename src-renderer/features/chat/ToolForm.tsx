import { useState, type FormEvent } from 'react';
import type { ToolInfo } from '../../../src-shared/host-api';
import { useApp } from '../../store/useApp';
import { useServer } from '../../store/useServer';
import { useSchemaForm } from '../../ui/useSchemaForm';
import { FREEFORM_KEY } from '../../ui/schema-form';
import type { ToolRef } from '../../store/transcript-entries';
import { FormField, JsonArea } from '../../ui/FormField';
import { CardTitle } from '../../ui/CardTitle';
import { useT } from '../../i18n';

/** The form for the selected tool, generated from its inputSchema. */
export function ToolForm() {
  const selected = useApp((s) => s.selectedTool);
  if (!selected) return null;
  // Keyed so that switching tools starts from a fresh form.
  return <SelectedToolForm key={`${selected.server}\u0000${selected.tool}`} selected={selected} />;
}

function SelectedToolForm({ selected }: { selected: ToolRef }) {
  const server = useServer(selected.server);
  const selectTool = useApp((s) => s.selectTool);
  const tool = server?.tools.find((t) => t.name === selected.tool);
  const ready = server?.status === 'ready' && tool !== undefined;
  const t = useT();

  return (
    <section
      className="card tool-form"
      data-testid="tool-form"
      onKeyDown={(e) => {
        // Esc closes the form (a field's own Esc, e.g. a completion list, comes first).
        if (e.key === 'Escape' && !e.defaultPrevented) {
          e.preventDefault();
          selectTool(undefined);
          document.querySelector<HTMLElement>('[data-testid="chat-input"]')?.focus();
        }
      }}
      aria-label={t('toolForm.formFor', { tool: selected.tool })}
    >
      <header className="card-head">
        <CardTitle server={selected.server} tool={selected.tool} />
        <button
          type="button"
          className="btn btn-ghost btn-small"
          aria-label={t('toolForm.close')}
          data-testid="tool-form-close"
          onClick={() => selectTool(undefined)}
        >
          ✕
        </button>
      </header>
      {tool?.description && <p className="muted tool-form-desc">{tool.description}</p>}
      {ready ? (
        <Fields server={selected.server} tool={tool} />
      ) : (
        <p className="server-error">
          {server === undefined
            ? t('toolForm.gone', { server: selected.server })
            : tool === undefined && server.status === 'ready'
              ? t('toolForm.noLonger', { server: selected.server, tool: selected.tool })
              : t('toolForm.notReady', { server: selected.server, status: server.status })}
        </p>
      )}
    </section>
  );
}

function Fields({ server, tool }: { server: string; tool: ToolInfo }) {
  const { form, values, errors, change, build } = useSchemaForm(tool.inputSchema);
  const [asTask, setAsTask] = useState(false);
  const callTool = useApp((s) => s.callTool);
  const taskSupport = tool.execution?.taskSupport;
  const t = useT();

  const submit = (event: FormEvent): void => {
    event.preventDefault();
    const args = build();
    if (args) void callTool({ server, tool: tool.name }, args, undefined, asTask ? { task: true } : undefined);
  };

  return (
    <form className="form-fields" onSubmit={submit} noValidate>
      {form.freeform && (
        <JsonArea
          label={t('toolForm.argsJson')}
          name={FREEFORM_KEY}
          value={values[FREEFORM_KEY] ?? ''}
          error={errors[FREEFORM_KEY]}
          onChange={(v) => change(FREEFORM_KEY, v)}
        />
      )}
      {form.fields.map((field) => (
        <FormField key={field.name} field={field} value={values[field.name] ?? ''} error={errors[field.name]} onChange={(v) => change(field.name, v)} />
      ))}
      {!form.freeform && form.fields.length === 0 && <p className="muted">{t('toolForm.noArgs')}</p>}
      <div className="form-actions">
        {taskSupport === 'optional' && (
          <label className="field-check-inline" title={t('toolForm.taskTitle')}>
            <input type="checkbox" data-testid="tool-form-task" checked={asTask} onChange={(e) => setAsTask(e.target.checked)} /> {t('toolForm.runAsTask')}
          </label>
        )}
        {taskSupport === 'required' && <span className="muted">{t('toolForm.runsAsTask')}</span>}
        <button type="submit" className="btn btn-primary" data-testid="tool-form-submit">
          {t('toolForm.call', { tool: tool.name })}
        </button>
      </div>
    </form>
  );
}
