import { useMemo, useState } from 'react';
import { buildArgs, formFromSchema, initialValues, type FormSpec, type FormValues } from './schema-form';

export interface SchemaForm {
  form: FormSpec;
  values: FormValues;
  errors: Record<string, string>;
  /** A field's new raw value; its error goes until the next submit. */
  change(name: string, value: string): void;
  /** The values as arguments; undefined when some are invalid (their errors are then shown). */
  build(): Record<string, unknown> | undefined;
}

/** A form generated from a JSON schema (a tool's inputSchema, an elicitation's requestedSchema), with its values and errors. */
export function useSchemaForm(schema: Record<string, unknown>): SchemaForm {
  const form = useMemo(() => formFromSchema(schema), [schema]);
  const [values, setValues] = useState<FormValues>(() => initialValues(form));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const change = (name: string, value: string): void => {
    setValues((v) => ({ ...v, [name]: value }));
    setErrors((e) => {
      if (!(name in e)) return e;
      const copy = { ...e };
      delete copy[name];
      return copy;
    });
  };
  const build = (): Record<string, unknown> | undefined => {
    const built = buildArgs(form, values);
    if (!built.ok) {
      setErrors(built.errors);
      return undefined;
    }
    setErrors({});
    return built.args;
  };
  return { form, values, errors, change, build };
}
