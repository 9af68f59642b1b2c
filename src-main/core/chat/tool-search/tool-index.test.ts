import { describe, expect, it } from 'vitest';
import type { ToolInfo } from '../../../../src-shared/host-api';
import { listCatalogue } from '../../../test-support/tool-catalogue';
import { labelledQueries, recallAt } from './labelled-queries';
import { indexFor, oneLine, ToolIndex, type IndexedTool } from './tool-index';
import { tokenize } from './tokenize';

const t = (server: string, name: string, description: string, extra: Partial<ToolInfo> = {}): IndexedTool => ({
  server,
  tool: name,
  info: { name, description, inputSchema: { type: 'object', properties: {} }, ...extra },
});

describe('tokenize', () => {
  it('splits identifiers where people see words', () => {
    expect(tokenize('read_text_file')).toEqual(['read', 'text', 'file']);
    expect(tokenize('getPullRequestDiff')).toEqual(['get', 'pull', 'request', 'diff']);
    expect(tokenize('list-directory-with-sizes')).toEqual(['list', 'directory', 'with', 'sizes']);
    expect(tokenize('parseHTMLDoc v2')).toEqual(['parse', 'html', 'doc', 'v', '2']);
  });

  it('gives Chinese runs their characters and pairs', () => {
    expect(tokenize('读取文件')).toEqual(['读', '取', '文', '件', '读取', '取文', '文件']);
    expect(tokenize('查询A股')).toEqual(['查', '询', '查询', 'a', '股']);
  });
});

describe('ToolIndex', () => {
  const tools = [
    t('fs', 'read_file', 'Read the complete contents of a file.'),
    t('fs', 'write_file', 'Create or overwrite a file.'),
    t('fs', 'list_directory', 'List the entries of a folder.'),
    t('git', 'create_branch', 'Create a new git branch.'),
    t('web', 'fetch_url', 'Download a web page.', { inputSchema: { type: 'object', properties: { url: { type: 'string' } } } }),
    t('zh', 'weather_query', '查询城市的天气预报。', { title: '查询天气' }),
    t('zh', 'translate', '把文字翻译成英文。', { title: '翻译' }),
    t('zh', 'send_wechat', '发送微信消息。'),
  ];
  const index = new ToolIndex(tools);
  const names = (query: string, limit?: number) => index.search(query, limit).map((m) => m.tool);

  it('ranks by name, description and parameter names, with plurals and prefixes folded', () => {
    expect(names('read file')[0]).toBe('read_file');
    expect(names('writing files')[0]).toBe('write_file');
    expect(names('branch')[0]).toBe('create_branch');
    expect(names('url')[0]).toBe('fetch_url');
    expect(names('direct')[0]).toBe('list_directory');
    expect(names('git')[0]).toBe('create_branch');
  });

  it('forgives a typo in a long word', () => {
    expect(names('directroy')[0]).toBe('list_directory');
  });

  it('finds Chinese tools from Chinese queries', () => {
    expect(names('明天的天气')[0]).toBe('weather_query');
    expect(names('翻译这段话')[0]).toBe('translate');
    expect(names('发消息')[0]).toBe('send_wechat');
  });

  it('returns at most limit matches, each with a one-line description', () => {
    expect(index.search('file', 1)).toHaveLength(1);
    expect(index.search('file', 100).length).toBeLessThanOrEqual(20);
    expect(index.search('zzzz qqqq')).toEqual([]);
    expect(oneLine('First line.\nSecond line.')).toBe('First line.');
    expect(oneLine('x'.repeat(300)).length).toBe(160);
  });

  it('is built once per tool list', () => {
    const a = indexFor(tools);
    expect(indexFor([...tools])).toBe(a);
    expect(indexFor([...tools.slice(1), t('fs', 'read_file', 'changed')])).not.toBe(a);
  });
});

describe('recall on real servers and the catalogue', () => {
  it(`finds the right tool in the first 5 for at least 90% of ${labelledQueries.length} labelled queries`, async () => {
    expect(labelledQueries.length).toBeGreaterThanOrEqual(50);
    const tools = await listCatalogue();
    expect(tools.length).toBeGreaterThan(300);
    const { recall, misses } = recallAt(new ToolIndex(tools), 5);
    expect(recall, JSON.stringify(misses, null, 1)).toBeGreaterThanOrEqual(0.9);
  }, 60_000);
});
