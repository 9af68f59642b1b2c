import { describe, expect, it } from 'vitest';
import { maxToolNameLength, ToolNameMap } from './tool-names';

const valid = /^[A-Za-z0-9_-]{1,64}$/;

describe('ToolNameMap', () => {
  it('names tools server__tool and maps them back exactly', () => {
    const map = new ToolNameMap([
      { server: 'calculator', tool: 'add' },
      { server: 'abacus', tool: 'add' },
    ]);
    expect(map.nameOf({ server: 'calculator', tool: 'add' })).toBe('calculator__add');
    expect(map.resolve('abacus__add')).toEqual({ server: 'abacus', tool: 'add' });
    expect(map.resolve('nope__add')).toBeUndefined();
  });

  it("sanitises to the providers' alphabet and keeps names that sanitise alike apart", () => {
    const refs = [
      { server: 'my server', tool: 'get.file' },
      { server: 'my_server', tool: 'get_file' },
      { server: 'my.server', tool: 'get/file' },
      { server: 'ünïcode', tool: '工具' },
    ];
    const map = new ToolNameMap(refs);
    const names = refs.map((r) => map.nameOf(r) ?? '');
    expect(new Set(names).size).toBe(refs.length);
    for (const [i, name] of names.entries()) {
      expect(name).toMatch(valid);
      expect(map.resolve(name)).toEqual(refs[i]);
    }
  });

  it('shortens long names to the limit, still unique and exact', () => {
    const long = 'x'.repeat(100);
    const refs = [
      { server: 'server', tool: `${long}a` },
      { server: 'server', tool: `${long}b` },
    ];
    const map = new ToolNameMap(refs);
    const names = refs.map((r) => map.nameOf(r) ?? '');
    expect(names[0]).not.toBe(names[1]);
    for (const [i, name] of names.entries()) {
      expect(name.length).toBeLessThanOrEqual(maxToolNameLength);
      expect(name).toMatch(valid);
      expect(map.resolve(name)).toEqual(refs[i]);
    }
  });
});
