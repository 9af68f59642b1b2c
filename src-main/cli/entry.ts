// The bundled CLI's entry (scripts/build-cli.mjs → out/cli/main.mjs). `--help` answers from args.ts alone, without
// loading the host, the MCP SDK or zod; everything else is main.ts (a chunk), which runs the command on import.
// `npm run cli` runs main.ts directly: the same behaviour, from source.
import { parseArgs, usage } from './args';
import { localizedUsage } from './i18n';
import { out } from './output';

function wantsHelpOnly(argv: readonly string[]): boolean {
  try {
    return parseArgs(argv).help;
  } catch {
    return false; // main.ts reports the usage error, with the exit code
  }
}

if (wantsHelpOnly(process.argv.slice(2))) out(localizedUsage(usage));
else await import('./main');
