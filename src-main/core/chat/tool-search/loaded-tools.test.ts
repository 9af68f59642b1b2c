import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { maxLoadedTools, type ChatEvent, type Conversation } from '../../../../src-shared/contract/chat';
import { disposeHarnesses, harness, type Harness } from '../../../test-support/chat-harness';
import { callTool, say, sequence, type Script } from '../../../test-support/fake-providers';
import { calculatorPath } from '../../support/paths';
import { waitFor } from '../../../test-support/processes';
import { withLoaded } from '../service';

/*
 * The conversation's loaded tools as the person manages them (pin, remove) and toolsets, through the real host with
 * the scripted OpenAI-compatible fake and real servers: what each model request is offered is the proof.
 */

const catalog = join(import.meta.dirname, '..', '..', 'fixtures', 'catalog-server.mjs');
const servers = {
  dev: { command: process.execPath, args: [catalog, '--set=dev', '--tools=150'] },
  calculator: { command: process.execPath, args: [calculatorPath()] },
};

afterEach(disposeHarnesses);

const toolsEvents = (h: Harness) => h.events.filter((e): e is Extract<ChatEvent, { type: 'tools-changed' }> => e.type === 'tools-changed');

describe('loaded tools: remove and pin', () => {
  it('a removed tool is not offered on the next request; a pinned one survives the trim to maxLoadedTools', async () => {
    const h = await harness(
      'openai',
      sequence(
        callTool('search_tools', { query: 'merge a pull request', limit: 3 }),
        say('found'),
        say('next turn'),
        callTool('search_tools', { query: 'issue', limit: 20 }),
        callTool('search_tools', { query: 'branch release workflow', limit: 20 }),
        callTool('search_tools', { query: 'repository file commit', limit: 20 }),
        callTool('search_tools', { query: 'pull request review', limit: 20 }),
        callTool('search_tools', { query: 'list create delete update', limit: 20 }),
        say('loaded many'),
        say('last'),
      ),
      { servers },
    );
    await h.host.api['chat:update-settings']({ toolLoading: 'search' });
    const first = await h.send('merge PR 7');
    const id = first.conversationId;
    const loaded = (await h.host.api['chat:get'](id)).loadedTools ?? [];
    expect(loaded).toHaveLength(3);
    expect(loaded[0]).toBe('dev/merge_pull_request');
    const removed = loaded[1] as string;
    // Every window hears of it (the composer's list follows the event).
    expect(toolsEvents(h).at(-1)?.tools).toMatchObject({ conversationId: id, loadedTools: loaded, pinnedTools: [], toolMode: 'search' });

    const pinned = await h.host.api['chat:pin-tool'](id, 'dev/merge_pull_request', true);
    expect(pinned.pinnedTools).toEqual(['dev/merge_pull_request']);
    const after = await h.host.api['chat:remove-tools'](id, [removed]);
    expect(after.loadedTools).toEqual(loaded.filter((k) => k !== removed));
    expect(toolsEvents(h).at(-1)?.tools.loadedTools).toEqual(after.loadedTools);
    await expect(h.host.api['chat:pin-tool'](id, 'dev/close_issue', true)).rejects.toThrow(/not loaded in this conversation/);

    await h.send('go on', id);
    const next = h.fake.requests[2];
    const modelName = (key: string) => key.replace('/', '__');
    expect(next?.toolNames).toContain('dev__merge_pull_request');
    expect(next?.toolNames).not.toContain(modelName(removed));
    expect(next?.toolNames).toContain('search_tools');

    // Three wide searches load far more than the list keeps: the oldest unpinned go, the pinned one stays.
    await h.send('load a lot', id);
    const saved = await h.host.api['chat:get'](id);
    expect(saved.loadedTools).toHaveLength(maxLoadedTools);
    expect(saved.loadedTools).toContain('dev/merge_pull_request');
    expect(saved.loadedTools).not.toContain(loaded[2]);
    expect(saved.pinnedTools).toEqual(['dev/merge_pull_request']);
    await h.send('and now', id);
    const last = h.fake.requests.at(-1);
    expect(last?.toolNames).toHaveLength(maxLoadedTools + 1);
    expect(last?.toolNames).toContain('dev__merge_pull_request');

    // On disk with the conversation.
    await h.host.dispose();
    const file = JSON.parse(readFileSync(join(h.dir, 'conversations', `${id}.json`), 'utf8')) as Conversation;
    expect(file.pinnedTools).toEqual(['dev/merge_pull_request']);
    expect(file.loadedTools).toEqual(saved.loadedTools);
  }, 90_000);

  it('removed while the turn runs: not offered from its next step, and the model may search for it again', async () => {
    // The script removes the tool through the host the harness starts with it.
    const box: { h?: Harness } = {};
    const script: Script = async (_request, index) => {
      if (index === 0) return callTool('search_tools', { query: 'merge a pull request', limit: 1 });
      if (index === 1) {
        const started = box.h?.events.find((e) => e.type === 'run-started');
        if (started?.type === 'run-started') await box.h?.host.api['chat:remove-tools'](started.conversationId, ['dev/merge_pull_request']);
        return callTool('search_tools', { query: 'nothing matches zzzz' });
      }
      if (index === 2) return callTool('search_tools', { query: 'merge a pull request', limit: 1 });
      return say('done');
    };
    const h = await harness('openai', script, { servers });
    box.h = h;
    await h.host.api['chat:update-settings']({ toolLoading: 'search' });
    const { conversationId, finished } = await h.send('merge');
    expect(finished.status).toBe('done');
    const names = h.fake.requests.map((r) => r.toolNames.includes('dev__merge_pull_request'));
    expect(names).toEqual([false, true, false, true]);
    expect((await h.host.api['chat:get'](conversationId)).loadedTools).toEqual(['dev/merge_pull_request']);
  }, 60_000);

  it('withLoaded keeps load order and drops the oldest unpinned past the limit', () => {
    const keys = Array.from({ length: maxLoadedTools }, (_, i) => `s/t${i}`);
    expect(withLoaded(keys, ['s/new', 's/t3'], ['s/t0'])).toEqual(['s/t0', ...keys.slice(2), 's/new']);
    expect(withLoaded(['s/a'], ['s/b', 's/a'], [])).toEqual(['s/a', 's/b']);
  });
});

describe('toolsets', () => {
  const toolsets = [
    { name: 'math', servers: ['calculator'] },
    { name: 'merge', tools: ['dev/merge_pull_request', 'calculator/add'] },
  ];

  it('all mode: the conversation is offered only its set; the choice is kept; null is all tools; a default set applies to new ones', async () => {
    const h = await harness('openai', sequence(say('ok')), { servers });
    await h.host.api['chat:update-settings']({ toolLoading: 'all', toolsets });
    const started = await h.host.api['chat:send']({ text: 'sum', toolset: 'math' });
    await waitFor(() => h.events.some((e) => e.type === 'run-finished' && e.runId === started.runId), 30_000, 'the turn to finish');
    await h.send('again', started.conversationId);
    for (const r of h.fake.requests) {
      expect(r.toolNames.length).toBeGreaterThan(0);
      expect(r.toolNames.every((n) => n.startsWith('calculator__'))).toBe(true);
    }
    expect((await h.host.api['chat:get'](started.conversationId)).toolset).toBe('math');

    await h.host.api['chat:set-toolset'](started.conversationId, null);
    await h.send('everything', started.conversationId);
    expect(h.fake.requests.at(-1)?.toolNames.length).toBeGreaterThan(150);

    await h.host.api['chat:update-settings']({ defaultToolset: 'merge' });
    await h.send('new one');
    expect(h.fake.requests.at(-1)?.toolNames.sort()).toEqual(['calculator__add', 'dev__merge_pull_request']);
    // The conversation that chose "all tools" keeps its choice.
    await h.send('still all', started.conversationId);
    expect(h.fake.requests.at(-1)?.toolNames.length).toBeGreaterThan(150);
  }, 60_000);

  it('search mode: search_tools finds only the set, and a tool outside it cannot be called by name', async () => {
    const h = await harness(
      'openai',
      sequence(
        callTool('search_tools', { query: 'merge a pull request add numbers', limit: 20 }),
        callTool('dev__merge_pull_request', { repo: 'a/b', number: 7 }),
        say('done'),
      ),
      { servers },
    );
    await h.host.api['chat:update-settings']({ toolLoading: 'search', toolsets, defaultToolset: 'math' });
    const { runId, finished } = await h.send('merge and add');
    expect(finished.status).toBe('done');
    const [search, merge] = h.tools(runId);
    expect(search?.search?.matches.length).toBeGreaterThan(0);
    expect(search?.search?.matches.every((m) => m.server === 'calculator')).toBe(true);
    expect(merge).toMatchObject({ tool: 'dev__merge_pull_request', status: 'error' });
    expect(h.approvalsAsked).toEqual([]);
    expect(h.fake.requests[0]?.toolNames).toEqual(['search_tools']);
    // The search tool's description counts only the set's servers.
    expect(JSON.stringify(h.fake.requests[0]?.body)).toContain('calculator (4)');
    expect(JSON.stringify(h.fake.requests[0]?.body)).not.toContain('dev (150)');
  }, 60_000);

  it('an unknown toolset is refused before anything is kept, naming the sets there are', async () => {
    const h = await harness('openai', sequence(say('ok')), { servers });
    await h.host.api['chat:update-settings']({ toolsets });
    await expect(h.host.api['chat:send']({ text: 'hi', toolset: 'nope' })).rejects.toThrow('There is no toolset "nope" (there are: "math", "merge")');
    expect(await h.host.api['chat:list']({})).toEqual([]);
    const { conversationId } = await h.send('hi');
    await expect(h.host.api['chat:set-toolset'](conversationId, 'nope')).rejects.toThrow(/no toolset "nope"/);
    // A set deleted after a conversation chose it: that conversation's next message says so.
    await h.host.api['chat:set-toolset'](conversationId, 'merge');
    await h.host.api['chat:update-settings']({ toolsets: [toolsets[0]] });
    await expect(h.host.api['chat:send']({ text: 'again', conversationId })).rejects.toThrow(/no toolset "merge"/);
    expect(h.fake.requests).toHaveLength(1);
  }, 60_000);
});
