/** The `diagnostics.*` section of the catalogue (see en.ts); diagnostics.zh-CN.ts has the same keys and placeholders. */
export const diagnosticsEn = {
  /**
   * Why a server gets process groups and not a cgroup of its own (ContainmentInfo.reasonInfo.code). The English is
   * the host's own text (ContainmentInfo.reason); these keep the same words.
   */
  containment: {
    'no-cgroup-v2': 'no cgroup v2 hierarchy (/proc/self/cgroup has no "0::" line)',
    'no-cgroup2-mount': 'no cgroup2 file system is mounted',
    'cgroup-not-visible': 'our cgroup {{own}} is not visible under any cgroup2 mount ({{mounts}})',
    'linux-only': 'cgroups are Linux-only (this is {{platform}})',
    'proc-unreadable': 'cannot read /proc/self/cgroup or /proc/self/mountinfo ({{detail}})',
    'cgroup-not-writable':
      'no writable cgroup v2 subtree: {{dir}} is not writable by us (run Switchboard as root, or inside a delegated scope: systemd-run --user --scope -p Delegate=yes …)',
    'not-a-cgroup': '{{dir}} does not behave like a cgroup v2 directory',
    'cgroup-create-failed': 'no writable cgroup v2 subtree: cannot create a cgroup in {{dir}} ({{detail}})',
    windows: 'Windows: the tree is ended with taskkill /T',
    'turned-off': 'turned off (SWITCHBOARD_CONTAINMENT=process-group)',
  },
  /** Why no sandbox is available (SandboxInfo.reasonInfo.code). */
  sandbox: {
    'bwrap-override-missing': 'SWITCHBOARD_BWRAP names {{path}}, which does not exist',
    'bwrap-not-installed': 'bubblewrap (bwrap) is not installed; install it (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap)',
    'bwrap-cannot-sandbox':
      '{{path}} cannot create a sandbox here ({{detail}}); unprivileged user namespaces may be disabled (sysctl kernel.unprivileged_userns_clone=1)',
    'sandbox-exec-missing': '{{path}} is missing',
    'no-sandbox-platform': 'no sandbox is available on {{platform}} (bubblewrap on Linux, sandbox-exec on macOS)',
  },
  /** A failed ping (ServerHealth.errorInfo.code): the chip's tooltip. `detail`: the server's or the transport's own text. */
  ping: {
    'ping-missed': 'Server "{{server}}" did not answer {{method}} within {{timeoutMs}} ms',
    'ping-failed': 'Server "{{server}}" could not be pinged ({{method}}): {{detail}}',
    'ping-error-answer': 'Server "{{server}}" answered {{method}} with an error: {{detail}}',
  },
  /**
   * The CLI's review lines (`switchboard trust`, `tools`): a finding of hidden text, a changed field's diff. `where` is
   * the field's path (title, inputSchema.properties.x.description) and the text the server's own, shown as they are.
   */
  trust: {
    finding: '{{where}}: {{kinds}}{{tags}} — {{text}}',
    tags: ' (tags spell "{{text}}")',
    selectors: ' (variation selectors spell "{{text}}")',
    kind: {
      'zero-width': 'zero-width',
      bidi: 'bidi',
      tag: 'tag',
      'variation-selector': 'variation-selector',
      control: 'control',
      invisible: 'invisible',
    },
    separator: ', ',
    none: '(none)',
    moreLines: '… {{count}} more line(s)',
  },
};
