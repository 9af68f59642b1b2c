import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pidsWith, tempDir, waitFor } from '../../test-support/processes';

const tags: string[] = [];
afterEach(() => {
  for (const pid of tags.splice(0).flatMap((tag) => pidsWith(tag))) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
});

describe.skipIf(process.platform === 'win32')(
  `killTree${process.platform === 'win32' ? ' — skipped: Windows ends trees with taskkill, not process groups' : ''}`,
  () => {
    it('keeps a process that has nothing else to do alive until the SIGKILL step has run', async () => {
      const tag = `--tag=${tempDir()}`;
      tags.push(tag);
      // A SIGTERM-deaf group leader with a SIGTERM-deaf child: only SIGKILL ends them.
      const deaf = `process.on("SIGTERM", () => {}); setInterval(() => {}, 1000)`;
      const leader = spawn(
        process.execPath,
        [
          '-e',
          `require("node:child_process").spawn(process.execPath, ["-e", ${JSON.stringify(deaf)}, "child", ${JSON.stringify(tag)}], { stdio: "ignore" }); ${deaf}`,
          'leader',
          tag,
        ],
        {
          detached: true,
          stdio: 'ignore',
        },
      );
      leader.unref();
      await waitFor(() => pidsWith(tag).length === 2, 5000, 'the deaf leader and child');
      // A script whose only work is the teardown, like a CLI after its command is done.
      const script = join(tempDir(), 'teardown.mts');
      writeFileSync(
        script,
        `import { killTree } from ${JSON.stringify(join(__dirname, 'tree.ts'))};\nawait killTree(${leader.pid}, 300);\nconsole.log('done');\n`,
      );
      const r = spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8', timeout: 30_000 });
      expect([r.status, r.stdout, r.stderr]).toEqual([0, 'done\n', '']);
      expect(pidsWith(tag)).toEqual([]);
    });
  },
);
