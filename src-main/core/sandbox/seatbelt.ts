/*
 * The macOS sandbox profile (SBPL, for `sandbox-exec -p`), equivalent to the Linux bubblewrap plan: the system
 * readable, the home folder, the other homes and the shared temp folders denied, the server's own folders and the
 * allowed paths readable, only the allowed paths and a private temp folder writable, the network only when allowed.
 * In SBPL the last matching rule wins, so the order is: allow the system, deny the hidden folders, allow back.
 */

export interface SeatbeltPlan {
  read: string[];
  write: string[];
  network: boolean;
  hidden: string[];
  cwd: string;
  /** The private temp folder (TMPDIR). */
  tmp: string;
}

/** An SBPL string literal. */
export function sbplString(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

const subpaths = (paths: readonly string[]): string => paths.map((p) => `(subpath ${sbplString(p)})`).join(' ');

export function seatbeltProfile(plan: SeatbeltPlan): string {
  const lines = [
    '(version 1)',
    '(deny default)',
    '(allow process-exec process-fork)',
    '(allow signal (target same-sandbox))',
    '(allow sysctl-read mach-lookup ipc-posix-shm iokit-open)',
    '(allow file-read-metadata)',
    '(allow file-read* (subpath "/"))',
    `(deny file-read* ${subpaths(plan.hidden)})`,
  ];
  const readable = [...new Set([plan.cwd, ...plan.read, ...plan.write])];
  lines.push(`(allow file-read* ${subpaths(readable)})`);
  lines.push(`(allow file-read* file-write* ${subpaths([plan.tmp, ...plan.write])} (literal "/dev/null") (literal "/dev/tty") (regex #"^/dev/fd/"))`);
  // Without `network` nothing allows it: `(deny default)` stands.
  if (plan.network) lines.push('(allow network*)');
  return `${lines.join('\n')}\n`;
}
