// The bundled CLI's `--help` (scripts/build-cli.mjs → out/cli/help.cjs): args.ts and the catalogues alone, so the
// usage is printed without reading the host, the MCP SDK or zod. The loader (out/cli/main.mjs) runs it only when the
// arguments hold -h or --help (parseArgs sets `help` for nothing else); cli.cjs runs everything else.
import { parseArgs, usage } from './args';
import { localizedUsage } from './i18n';
import { out } from './output';

/** Prints the usage when the arguments ask only for it (a usage error is main.ts's to report, with its exit code). */
export function helpOnly(argv: readonly string[]): boolean {
  let help: boolean;
  try {
    help = parseArgs(argv).help;
  } catch {
    return false;
  }
  if (help) out(localizedUsage(usage));
  return help;
}
