import { useMemo, useState, type FormEvent } from 'react';
import type { ResourceTemplateInfo } from '../../../src-shared/contract/resources';
import { CompleteField } from '../../ui/CompleteField';
import { DetailHead } from '../../ui/FeatureParts';
import { expandTemplate, templateVariables } from './uri-template';
import { useT } from '../../i18n';

/** Fills a resource template's variables (with the server's suggestions as you type) and reads the URI it makes. */
export function TemplateForm({
  template,
  complete,
  onRead,
}: {
  template: ResourceTemplateInfo;
  /** Suggestions for one variable given the others (`completion/complete`); absent when the server has no completions. */
  complete?: ((argument: string, value: string, context: Record<string, string>) => Promise<string[]>) | undefined;
  onRead(uri: string): void;
}) {
  const t = useT();
  const variables = useMemo(() => templateVariables(template.uriTemplate), [template.uriTemplate]);
  const [values, setValues] = useState<Record<string, string>>({});
  const uri = expandTemplate(template.uriTemplate, values);
  const missing = variables.filter((v) => (values[v] ?? '') === '');
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    onRead(uri);
  };
  return (
    <form
      className="template-form form-fields"
      aria-label={t('resourceList.templateLabel', { name: template.name })}
      data-testid="template-form"
      onSubmit={submit}
      noValidate
    >
      <DetailHead title={template.title ?? template.name} id={template.uriTemplate} />
      {template.description && <p className="muted detail-meta">{template.description}</p>}
      {variables.length === 0 && <p className="muted">{t('resources.noVariables')}</p>}
      {variables.map((name) => (
        <CompleteField
          key={name}
          label={name}
          name={name}
          value={values[name] ?? ''}
          onChange={(v) => setValues((old) => ({ ...old, [name]: v }))}
          complete={
            complete
              ? (value) => {
                  const context = Object.fromEntries(Object.entries(values).filter(([k, v]) => k !== name && v !== ''));
                  return complete(name, value, context);
                }
              : undefined
          }
        />
      ))}
      <p className="template-preview">
        <span className="muted">{t('resources.uri')}</span>
        <code data-testid="template-uri">{uri}</code>
      </p>
      <div className="form-actions">
        <button
          type="submit"
          className="btn btn-primary"
          data-testid="template-read"
          title={missing.length > 0 ? t('resourceList.notFilled', { names: missing.join(', ') }) : undefined}
        >
          {t('resources.read')}
        </button>
      </div>
    </form>
  );
}
