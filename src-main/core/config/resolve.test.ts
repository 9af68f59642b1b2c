import { describe, expect, it } from 'vitest';
import { resolveRoots } from './resolve';

describe('resolveRoots', () => {
  it('resolves relative paths against the base folder, keeps file:// URIs, names each by its folder, drops duplicates', () => {
    expect(resolveRoots(['work', '/abs/dir', 'file:///srv/data', '/abs/dir'], '/base')).toEqual([
      { uri: 'file:///base/work', name: 'work' },
      { uri: 'file:///abs/dir', name: 'dir' },
      { uri: 'file:///srv/data', name: 'data' },
    ]);
    expect(() => resolveRoots(['https://example.com/x'], '/base')).toThrow(/not a folder path or file:\/\/ URI/);
  });
});
