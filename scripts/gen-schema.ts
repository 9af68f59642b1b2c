// Regenerates resources/mcp.schema.json from the zod schema: `npx tsx scripts/gen-schema.ts`.
// A unit test fails when the committed file is stale.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { serversConfigJsonSchemaText } from '../src-main/core/config/json-schema';

writeFileSync(join(import.meta.dirname, '..', 'resources', 'mcp.schema.json'), serversConfigJsonSchemaText());
