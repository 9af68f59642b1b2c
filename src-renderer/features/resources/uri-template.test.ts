import { describe, expect, it } from 'vitest';
import { expandTemplate, templateVariables } from './uri-template';

describe('URI templates', () => {
  it('lists variables in order, once', () => {
    expect(templateVariables('file:///{path}')).toEqual(['path']);
    expect(templateVariables('users://{id}/posts{?page,limit}{&id}')).toEqual(['id', 'page', 'limit']);
    expect(templateVariables('x://{+base}{/seg*}{#frag:3}')).toEqual(['base', 'seg', 'frag']);
    expect(templateVariables('plain://no-vars')).toEqual([]);
  });

  it('expands simple, reserved, path, query and fragment expressions', () => {
    expect(expandTemplate('test://static/resource/{id}', { id: '42' })).toBe('test://static/resource/42');
    expect(expandTemplate('file:///{path}', { path: 'a b/c' })).toBe('file:///a%20b%2Fc');
    expect(expandTemplate('file:///{+path}', { path: 'a b/c' })).toBe('file:///a%20b/c');
    expect(expandTemplate('x://h{/a,b}', { a: 'one', b: 'two' })).toBe('x://h/one/two');
    expect(expandTemplate('x://h/list{?page,limit}', { page: '2', limit: '' })).toBe('x://h/list?page=2');
    expect(expandTemplate('x://h/list{?page}{&q}', { page: '1', q: 'a&b' })).toBe('x://h/list?page=1&q=a%26b');
    expect(expandTemplate('x://h{#frag}', { frag: 'top' })).toBe('x://h#top');
    expect(expandTemplate('x://h/{name:3}', { name: 'abcdef' })).toBe('x://h/abc');
    expect(expandTemplate('x://h/{id}', {})).toBe('x://h/');
  });
});
