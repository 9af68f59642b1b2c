import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Conversation } from '../../../../src-shared/contract/chat';
import { disposeHarnesses, harness } from '../../../test-support/chat-harness';
import { callTool, say, sequence, type Vendor } from '../../../test-support/fake-providers';
import { calculatorPath } from '../../support/paths';

/*
 * Search mode end to end: the real AI SDK providers against the scripted fake vendors on loopback, the catalogue
 * fixture (hundreds of tools) and the calculator as real servers, through the real host.
 */

const catalog = join(import.meta.dirname, '..', '..', 'fixtures', 'catalog-server.mjs');
const servers = {
  dev: { command: process.execPath, args: [catalog, '--set=dev', '--tools=150'] },
  office: { command: process.execPath, args: [catalog, '--set=office', '--tools=150', '--hidden=1'] },
  calculator: { command: process.execPath, args: [calculatorPath()] },
};

afterEach(disposeHarnesses);

describe.each<Vendor>(['openai', 'anthropic'])('tool search against a fake %s server', (vendor) => {
  it('offers only search_tools, loads what the search finds for the next step, and keeps it in the conversation', async () => {
    const h = await harness(
      vendor,
      sequence(
        callTool('search_tools', { query: 'merge a pull request', limit: 3 }),
        callTool('dev__merge_pull_request', { repo: 'a/b', number: 7 }),
        say('Merged.'),
        // The next turn: a tool the model knows by name, never searched for, loads and runs.
        callTool('calculator__add', { a: 2, b: 3 }),
        say('5'),
      ),
      { servers },
    );
    const first = await h.send('Merge PR 7 of a/b');
    expect(first.finished.status).toBe('done');
    const [request0, request1, request2] = h.fake.requests;
    expect(request0?.toolNames).toEqual(['search_tools']);
    // Loaded from the next step on: the search's matches, with their full definitions.
    expect(request1?.toolNames).toContain('dev__merge_pull_request');
    expect(request1?.toolNames.length).toBeLessThanOrEqual(4);
    expect(JSON.parse(request1?.toolResults[0]?.content ?? '{}')).toMatchObject({
      loaded: expect.arrayContaining([expect.objectContaining({ name: 'dev__merge_pull_request', server: 'dev', title: 'Merge pull request' })]) as unknown,
    });
    expect(request2?.toolResults.map((r) => r.content)).toEqual(['merge_pull_request ok {"repo":"a/b","number":7}']);

    const [search, merge] = h.tools(first.runId);
    expect(search).toMatchObject({ tool: 'search_tools', status: 'done', search: { query: 'merge a pull request' } });
    expect(search?.search?.matches[0]).toEqual({ server: 'dev', tool: 'merge_pull_request', title: 'Merge pull request', newlyLoaded: true });
    // The loaded tool went through the same approval as any other.
    expect(merge).toMatchObject({ server: 'dev', tool: 'merge_pull_request', status: 'done', decision: 'allow-once' });
    expect(h.approvalsAsked.map((p) => p.tool)).toEqual(['merge_pull_request']);

    const second = await h.send('and 2+3?', first.conversationId);
    expect(second.finished.status).toBe('done');
    const request3 = h.fake.requests[3];
    // The loaded set is offered again on the next turn.
    expect(request3?.toolNames).toEqual(expect.arrayContaining(['search_tools', 'dev__merge_pull_request']));
    expect(request3?.toolNames).not.toContain('calculator__add');
    expect(h.tools(second.runId).map((t) => [t.server, t.tool, t.status])).toEqual([['calculator', 'add', 'done']]);
    expect(h.fake.requests[4]?.toolResults.map((r) => r.content)).toEqual(['5']);

    // Kept with the conversation on disk, so a reopened or resumed conversation has it.
    await h.host.dispose();
    const saved = JSON.parse(readFileSync(join(h.dir, 'conversations', `${first.conversationId}.json`), 'utf8')) as Conversation;
    expect(saved.loadedTools).toEqual(expect.arrayContaining(['dev/merge_pull_request', 'calculator/add']));
  }, 60_000);
});

describe('what tool search never surfaces', () => {
  it('a tool needing review, a disabled tool: not found, not callable by name', async () => {
    const h = await harness(
      'openai',
      sequence(
        callTool('search_tools', { query: 'sync notes', limit: 20 }),
        callTool('search_tools', { query: 'close issue', limit: 20 }),
        callTool('office__sync_notes', { folder: '/' }),
        say('done'),
      ),
      { servers },
    );
    await h.host.api['chat:update-settings']({ toolLoading: 'search', disabledTools: ['dev/close_issue'] });
    const office = (await h.host.api['servers:list']()).find((s) => s.name === 'office');
    expect(office?.tools.find((t) => t.name === 'sync_notes')?.review?.state).toBe('flagged');

    const { runId, finished } = await h.send('sync my notes, then close issue 3');
    expect(finished.status).toBe('done');
    const [syncSearch, closeSearch, syncCall] = h.tools(runId);
    expect(syncSearch?.search?.matches.map((m) => m.tool)).not.toContain('sync_notes');
    expect(closeSearch?.search?.matches.map((m) => `${m.server}/${m.tool}`)).not.toContain('dev/close_issue');
    expect(closeSearch?.search?.matches.length).toBeGreaterThan(0);
    expect(syncCall).toMatchObject({ tool: 'office__sync_notes', status: 'error' });
    expect(h.approvalsAsked).toEqual([]);
    for (const r of h.fake.requests) expect(r.toolNames).not.toContain('office__sync_notes');
  }, 60_000);

  it('"all" offers every definition and no search_tools', async () => {
    const h = await harness('openai', sequence(say('hi')), { servers });
    await h.host.api['chat:update-settings']({ toolLoading: 'all' });
    await h.send('hello');
    expect(h.fake.requests[0]?.toolNames).not.toContain('search_tools');
    expect(h.fake.requests[0]?.toolNames.length).toBeGreaterThan(290);
  }, 60_000);
});
