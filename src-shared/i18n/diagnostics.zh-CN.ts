import type { Catalogue } from './en';

/** 目录中 `diagnostics.*` 一节的简体中文：键与 diagnostics.en.ts 相同。 */
export const diagnosticsZhCN: Catalogue['diagnostics'] = {
  containment: {
    'no-cgroup-v2': '没有 cgroup v2 层级（/proc/self/cgroup 中没有 "0::" 行）',
    'no-cgroup2-mount': '没有挂载 cgroup2 文件系统',
    'cgroup-not-visible': '我们的 cgroup {{own}} 在任何 cgroup2 挂载点下都不可见（{{mounts}}）',
    'linux-only': 'cgroup 只在 Linux 上可用（当前系统是 {{platform}}）',
    'proc-unreadable': '无法读取 /proc/self/cgroup 或 /proc/self/mountinfo（{{detail}}）',
    'cgroup-not-writable':
      '没有可写的 cgroup v2 子树：我们无法写入 {{dir}}（请以 root 身份运行 Switchboard，或在委派的 scope 中运行：systemd-run --user --scope -p Delegate=yes …）',
    'not-a-cgroup': '{{dir}} 不像是一个 cgroup v2 目录',
    'cgroup-create-failed': '没有可写的 cgroup v2 子树：无法在 {{dir}} 中创建 cgroup（{{detail}}）',
    windows: 'Windows：用 taskkill /T 结束整个进程树',
    'turned-off': '已关闭（SWITCHBOARD_CONTAINMENT=process-group）',
  },
  sandbox: {
    'bwrap-override-missing': 'SWITCHBOARD_BWRAP 指定的 {{path}} 不存在',
    'bwrap-not-installed': '未安装 bubblewrap（bwrap）；请安装（Debian/Ubuntu：apt-get install bubblewrap；Fedora：dnf install bubblewrap）',
    'bwrap-cannot-sandbox': '{{path}} 无法在此处创建沙箱（{{detail}}）；可能禁用了非特权用户命名空间（sysctl kernel.unprivileged_userns_clone=1）',
    'sandbox-exec-missing': '缺少 {{path}}',
    'no-sandbox-platform': '{{platform}} 上没有可用的沙箱（Linux 上用 bubblewrap，macOS 上用 sandbox-exec）',
  },
  ping: {
    'ping-missed': '服务器“{{server}}”没有在 {{timeoutMs}} 毫秒内回应 {{method}}',
    'ping-failed': '无法 ping 服务器“{{server}}”（{{method}}）：{{detail}}',
    'ping-error-answer': '服务器“{{server}}”对 {{method}} 返回了错误：{{detail}}',
  },
  trust: {
    finding: '{{where}}：{{kinds}}{{tags}} — {{text}}',
    tags: '（标签字符拼出“{{text}}”）',
    selectors: '（变体选择符拼出“{{text}}”）',
    kind: {
      'zero-width': '零宽字符',
      bidi: '双向控制字符',
      tag: '标签字符',
      'variation-selector': '变体选择符',
      control: '控制字符',
      invisible: '不可见字符',
    },
    separator: '、',
    none: '（无）',
    moreLines: '… 还有 {{count}} 行',
  },
};
