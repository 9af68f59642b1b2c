/*
 * The macOS sandbox profile (SBPL, for `sandbox-exec -p`), equivalent to the Linux bubblewrap plan: the system
 * readable, the home folder, the other homes and the shared temp folders denied, the server's own folders and the
 * allowed paths readable, only the allowed paths, a private temp folder and the server's private folders (caches,
 * working folder) writable, the network only when allowed. Every `.env` file outside the server's own package and
 * the host's working folder are denied over whatever allowed them, Switchboard's own folders over everything.
 * In SBPL the last matching rule wins, so the order is: allow the system, deny the hidden folders, allow back, deny
 * `.env` files and the working folders, allow the server's own package, deny Switchboard's folders, allow the
 * server's private folders (which lie in the data folder).
 */

export interface SeatbeltPlan {
  read: string[];
  write: string[];
  network: boolean;
  hidden: string[];
  cwd: string;
  /** The private temp folder (TMPDIR). */
  tmp: string;
  /** The host's working folders not listed: denied, but for the server's own package in them. */
  masked?: string[];
  /** The server's own package and install: readable, `.env` files included. */
  own?: string[];
  /** Switchboard's own folders and files: denied whatever else allows them. */
  protect?: string[];
  /** The server's private folders (caches, working folder): readable and writable. */
  private?: string[];
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
  // `.env`, `.env.local`, … anywhere; then Switchboard's own folders and the unlisted working folders.
  lines.push('(deny file-read* file-write* (regex #"/\\.env(\\.[^/]*)?$"))');
  if (plan.masked && plan.masked.length > 0) lines.push(`(deny file-read* file-write* ${subpaths(plan.masked)})`);
  if (plan.own && plan.own.length > 0) lines.push(`(allow file-read* ${subpaths(plan.own)})`);
  if (plan.protect && plan.protect.length > 0) lines.push(`(deny file-read* file-write* ${subpaths(plan.protect)})`);
  if (plan.private && plan.private.length > 0) lines.push(`(allow file-read* file-write* ${subpaths(plan.private)})`);
  // Without `network` nothing allows it: `(deny default)` stands.
  if (plan.network) lines.push('(allow network*)');
  return `${lines.join('\n')}\n`;
}
