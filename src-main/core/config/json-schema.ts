import { z } from 'zod';
import { serversConfigSchema } from '../../../src-shared/schemas/config';

/**
 * The JSON Schema of the servers config, generated from the zod schema (the one source of truth), shipped as
 * resources/mcp.schema.json and referenced by `$schema` in the first-run file so editors autocomplete.
 */
export function serversConfigJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(serversConfigSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return {
    ...schema,
    $id: 'https://switchboard.local/mcp.schema.json',
    title: 'Switchboard MCP servers',
    description: 'MCP servers for Switchboard (Claude Desktop compatible). Comments and trailing commas are allowed.',
  };
}

export function serversConfigJsonSchemaText(): string {
  return `${JSON.stringify(serversConfigJsonSchema(), null, 2)}\n`;
}
