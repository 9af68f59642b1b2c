import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test-support/processes';
import { ChatSettingsStore } from './chat-settings';

describe('chat settings shared by two hosts (the app and `serve`, each with what it read at start)', () => {
  it('a change is made to the file as it is now: what the other host saved meanwhile stays', () => {
    const file = join(tempDir(), 'chat-settings.json');
    const app = new ChatSettingsStore(file);
    const serve = new ChatSettingsStore(file);
    app.allowAlways('calc/add');
    serve.allowAlways('calc/sub');
    serve.setBaseURL('openai', 'http://127.0.0.1:1234/v1');
    app.update({ maxSteps: 20 });
    const saved = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    expect(saved).toMatchObject({ alwaysAllow: ['calc/add', 'calc/sub'], maxSteps: 20, providers: { openai: { baseURL: 'http://127.0.0.1:1234/v1' } } });
    // Each host's view is the file's as of its own last change.
    expect(app.view()).toMatchObject({ alwaysAllow: ['calc/add', 'calc/sub'], maxSteps: 20 });
    expect(app.baseURL('openai')).toBe('http://127.0.0.1:1234/v1');
  });
});

describe('tool loading', () => {
  it('is auto by default, saved when changed, and auto again when the file holds something else', () => {
    const file = join(tempDir(), 'chat-settings.json');
    const store = new ChatSettingsStore(file);
    expect(store.view().toolLoading).toBe('auto');
    store.update({ toolLoading: 'search' });
    expect(new ChatSettingsStore(file).view().toolLoading).toBe('search');
    writeFileSync(file, JSON.stringify({ toolLoading: 'sometimes', maxSteps: 7 }));
    expect(new ChatSettingsStore(file).view()).toMatchObject({ toolLoading: 'auto', maxSteps: 7 });
  });
});

describe('toolsets', () => {
  it('are saved, and a wrong one is refused naming the set and the field', () => {
    const file = join(tempDir(), 'chat-settings.json');
    const store = new ChatSettingsStore(file);
    expect(store.view().toolsets).toEqual([]);
    store.update({ toolsets: [{ name: 'coding', servers: ['github', 'github'], tools: ['fs/read_file'] }, { name: 'research' }], defaultToolset: 'coding' });
    expect(new ChatSettingsStore(file).view()).toMatchObject({
      toolsets: [{ name: 'coding', servers: ['github'], tools: ['fs/read_file'] }, { name: 'research' }],
      defaultToolset: 'coding',
    });
    expect(() => store.update({ toolsets: [{ name: 'coding', tools: ['read_file'] }] })).toThrow(
      'Toolset "coding": tools[0] ("read_file") must be written server/tool.',
    );
    expect(() => store.update({ toolsets: [{ name: 'coding', servers: 'github' }] })).toThrow('Toolset "coding": servers must be a list of server names');
    expect(() => store.update({ toolsets: [{ name: ' ' }] })).toThrow('Toolset " ": name: must not be empty');
    expect(() => store.update({ toolsets: [{ name: 'a' }, { name: 'a' }] })).toThrow('Toolset "a" is defined twice');
    expect(() => store.update({ toolsets: [{ name: 'a', server: ['x'] }] })).toThrow('Toolset "a": unknown field "server"');
    expect(() => store.update({ defaultToolset: 'writing' })).toThrow('defaultToolset "writing" names no toolset (there are: "coding", "research")');
    // Nothing of a refused change was kept.
    expect(store.view().toolsets).toHaveLength(2);
    // Deleting the default set makes the default all tools; null clears it too.
    store.update({ toolsets: [{ name: 'research' }] });
    expect(store.view().defaultToolset).toBeUndefined();
    store.update({ defaultToolset: 'research' });
    store.update({ defaultToolset: null });
    expect(store.view().defaultToolset).toBeUndefined();
  });

  it('a hand-edited file with a wrong set: the good sets are used and the view says what is wrong', () => {
    const file = join(tempDir(), 'chat-settings.json');
    writeFileSync(
      file,
      JSON.stringify({
        toolsets: [
          { name: 'ok', servers: ['a'] },
          { name: 'bad', tools: [3] },
        ],
        defaultToolset: 'gone',
        maxSteps: 5,
      }),
    );
    const view = new ChatSettingsStore(file).view();
    expect(view).toMatchObject({ toolsets: [{ name: 'ok', servers: ['a'] }], maxSteps: 5 });
    expect(view.defaultToolset).toBeUndefined();
    expect(view.toolsetsError).toContain('Toolset "bad": tools[0] (3)');
    expect(view.toolsetsError).toContain('defaultToolset "gone" names no toolset');
  });
});
