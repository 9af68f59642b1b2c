import { AjvJsonSchemaValidator } from '@modelcontextprotocol/client/validators/ajv';
import type { ToolInfo, ToolResult } from '../../../../src-shared/host-api';

/*
 * A tool's `structuredContent` checked against its `outputSchema` in core, so that a mismatch is shown with the
 * result (`ToolResult.outputSchemaError`) instead of failing the call as the SDK client's callTool does. The SDK's
 * own validator (Ajv) does the checking; compiled validators are kept per schema object (a re-list replaces them).
 */

type Check = (value: unknown) => { valid: boolean; errorMessage?: string };

const validator = new AjvJsonSchemaValidator();
const compiled = new WeakMap<object, Check | { compileError: string }>();

function compile(schema: Record<string, unknown>): Check | { compileError: string } {
  let entry = compiled.get(schema);
  if (!entry) {
    try {
      entry = validator.getValidator(schema) as Check;
    } catch (error) {
      entry = { compileError: error instanceof Error ? error.message : String(error) };
    }
    compiled.set(schema, entry);
  }
  return entry;
}

/**
 * Why `result` does not fit `tool`'s outputSchema, or undefined when it does: the reasons only, failing paths named
 * ("structuredContent/sum must be number, structuredContent must have required property 'product'"); the UI and
 * the CLI say what it is about.
 */
export function outputSchemaError(tool: ToolInfo, result: ToolResult): string | undefined {
  const schema = tool.outputSchema;
  if (!schema || result.isError === true) return undefined;
  if (result.structuredContent === undefined) return 'the result has no structuredContent (the tool declares an outputSchema)';
  const check = compile(schema);
  if ('compileError' in check)
    return `the outputSchema is not a valid JSON Schema (${check.compileError.slice(0, 200)}), so structuredContent could not be checked`;
  const verdict = check(result.structuredContent);
  if (verdict.valid) return undefined;
  // Ajv names the value "data": "data/sum must be number, data must have required property 'product'".
  return (verdict.errorMessage ?? 'structuredContent does not match').replace(/\bdata(?=[/ .[]|$)/g, 'structuredContent');
}
