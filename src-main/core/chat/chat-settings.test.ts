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
