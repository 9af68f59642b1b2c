// The bundled CLI's entry (scripts/build-cli.mjs → out/cli/cli.cjs, run by out/cli/main.mjs): main.ts, which runs
// the command on import. `--help` is help-entry.ts (help.cjs), answered without loading the host, the MCP SDK or zod;
// it is checked here too, so this file alone behaves as the CLI does. `npm run cli` runs main.ts directly.
// No top-level await: the bundle is CommonJS (V8's code cache works for scripts on every Node we support).
import { helpOnly } from './help-entry';

if (!helpOnly(process.argv.slice(2))) void import('./main');
