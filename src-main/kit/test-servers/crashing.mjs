// The kit's `crashing` test server (docs/testing.md#test-servers): writes one line to stderr and exits with a code,
// before it answers anything — or, with --after-ready-ms=MS, MS after it has answered `initialize` (then it is
// src-main/core/fixtures/tiny-server.mjs, its tools `echo` and `sleep` working until then).
//   --exit-code=N        the exit code (default 1)
//   --message=TEXT       the stderr line (default "crashing: fatal error, exiting"; with --after-ready-ms the line is
//                        "NAME: fatal error, exiting", NAME from --name, default "crashing")
//   --after-ready-ms=MS  crash MS after the handshake instead of at start
import { arg } from '../../core/fixtures/cli-arg.mjs';

const afterReady = arg('after-ready-ms');
const exitCode = Number(arg('exit-code') ?? '1');
if (afterReady === undefined) {
  process.stderr.write(`${arg('message') ?? 'crashing: fatal error, exiting'}\n`);
  process.exit(exitCode);
} else {
  // tiny-server reads these from its command line.
  if (arg('name') === undefined) process.argv.push('--name=crashing');
  process.argv.push(`--die-after-ready=${afterReady}`, `--exit-code=${exitCode}`);
  await import('../../core/fixtures/tiny-server.mjs');
}
