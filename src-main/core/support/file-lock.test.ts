import { existsSync } from 'node:fs';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import { describe, expect, it } from 'vitest';
import { createI18n, localizeError } from '../../../src-shared/i18n';
import { tempDir } from '../../test-support/processes';
import { toHostError } from '../errors';
import { FileLockBusyError, isFileLockBusy, lockPathOf, lockStaleMs, withFileLock, withFileLockSync } from './file-lock';

describe('withFileLockSync / withFileLock', () => {
  it('holds FILE.lock while the change runs, nests within one process, and releases on an error too', () => {
    const file = join(tempDir(), 'secrets.json');
    const lock = lockPathOf(file);
    const seen = withFileLockSync(file, () => {
      expect(existsSync(lock)).toBe(true);
      // A store's own edit inside a caller's hold (a bundle install around the config store's edit).
      return withFileLockSync(file, () => existsSync(lock));
    });
    expect([seen, existsSync(lock)]).toEqual([true, false]);
    expect(() =>
      withFileLockSync(file, () => {
        throw new Error('the change failed');
      }),
    ).toThrow('the change failed');
    expect(existsSync(lock)).toBe(false);
  });

  it("makes the file's folder when it does not exist yet (a first write)", () => {
    const file = join(tempDir(), 'not-yet', 'consent.json');
    expect(withFileLockSync(file, () => 'written')).toBe('written');
    expect(existsSync(lockPathOf(file))).toBe(false);
  });

  it('the waiting variant lets the event loop run while another holder finishes, then runs the change', async () => {
    const file = join(tempDir(), 'mcp.json');
    const release = lockfile.lockSync(file, { realpath: false, lockfilePath: lockPathOf(file), stale: lockStaleMs });
    let ticks = 0;
    const ticking = setInterval(() => ticks++, 10);
    setTimeout(release, 300);
    const started = Date.now();
    const result = await withFileLock(file, () => 'done');
    clearInterval(ticking);
    expect(result).toBe('done');
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(ticks).toBeGreaterThan(5);
    expect(existsSync(lockPathOf(file))).toBe(false);
  });
});

describe('FileLockBusyError', () => {
  it("says which file, that another process holds it, and what to do — in the UI's language too, from its data", () => {
    const error = new FileLockBusyError('/home/ann/.config/Switchboard/secrets.json', '/home/ann/.config/Switchboard/secrets.json.lock', 6100);
    expect(error.message).toBe(
      'Not saved: another Switchboard process is changing /home/ann/.config/Switchboard/secrets.json and did not finish within 6 s (it holds /home/ann/.config/Switchboard/secrets.json.lock). Nothing was written. Try again in a moment; if this keeps happening, end the switchboard process that is stuck.',
    );
    const hostError = toHostError(error);
    expect(isFileLockBusy(hostError)).toBe(true);
    expect(localizeError(createI18n('en'), hostError)).toBe(error.message);
    expect(localizeError(createI18n('zh-CN'), hostError)).toBe(
      '未保存：另一个 Switchboard 进程正在修改 /home/ann/.config/Switchboard/secrets.json，且未在 6 秒内完成（它持有 /home/ann/.config/Switchboard/secrets.json.lock）。未写入任何内容。请稍后再试；如果反复出现，请结束卡住的 switchboard 进程。',
    );
  });
});
