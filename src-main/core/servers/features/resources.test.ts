// Resources and completion through the host's API (resources:*, completion:complete), against features-server.mjs
// in both protocol eras over stdio and Streamable HTTP, the bundled calculator (no resources, no completions) and
// server-everything over stdio. Real processes; every host is disposed after its test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostEvents, ResourceUpdatedEvent, ToolResult } from '../../../../src-shared/host-api';
import type { Host } from '../../host';
import { calculatorPath } from '../../support/paths';
import { FEATURE_ERAS as ERAS, featuresServer as fixture, hostPerTest, startFeaturesHttp } from '../../../test-support/features-fixture';
import { everythingEntry as everything, waitFor } from '../../../test-support/processes';

const { hostWith } = hostPerTest();

/** Every `event` the host emits from now on. */
function record<E extends keyof HostEvents>(h: Host, event: E): Array<HostEvents[E]> {
  const seen: Array<HostEvents[E]> = [];
  h.api.on(event, (payload) => seen.push(payload));
  return seen;
}

const textOf = (result: ToolResult): string => result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');

/**
 * The whole resources story against one running fixture named `features`. `fresh`: the fixture process is this
 * host's alone (stdio); over HTTP one process serves both eras, so resources an earlier story added are listed too.
 */
async function resourcesStory(h: Host, era: 'legacy' | 'modern', fresh: boolean): Promise<void> {
  const server = 'features';
  const [view] = await h.api['servers:list']();
  expect(view, view?.error).toMatchObject({ status: 'ready', era, capabilities: { resources: true, subscribe: true, completions: true } });

  // Every page: hello.txt, pixel.png, counter and many/0 … many/119 (the fixture answers pages of 50).
  const listed = await h.api['resources:list'](server);
  // (resources:list waits for the load that follows ready; the server's view then has the counts.)
  expect(listed.error).toBeUndefined();
  const uris = new Set(listed.resources.map((r) => r.uri));
  expect(uris.size).toBe(listed.resources.length);
  if (fresh) expect(uris.size).toBe(123);
  expect([...uris].filter((u) => !u.startsWith('fixture://added/'))).toHaveLength(123);
  expect((await h.api['servers:list']())[0]?.counts).toEqual({ resources: uris.size, templates: 1, prompts: expect.any(Number) });
  for (let i = 0; i < 120; i++) expect(uris.has(`fixture://many/${i}`), `fixture://many/${i}`).toBe(true);
  expect(listed.resources.find((r) => r.uri === 'fixture://static/hello.txt')).toEqual({
    uri: 'fixture://static/hello.txt',
    name: 'hello',
    title: 'Hello',
    description: 'A short text',
    mimeType: 'text/plain',
  });
  expect(listed.templates).toEqual([
    { uriTemplate: 'fixture://items/{category}/{id}', name: 'items', title: 'Items', description: 'An item by category and id', mimeType: 'application/json' },
  ]);
  expect(listed).toMatchObject({ server, subscribed: [], canSubscribe: true });

  // Read: text, and a blob (base64 PNG).
  expect(await h.api['resources:read']({ server, uri: 'fixture://static/hello.txt' })).toEqual({
    contents: [{ uri: 'fixture://static/hello.txt', mimeType: 'text/plain', text: 'Hello from the features fixture.\n' }],
  });
  const pixel = await h.api['resources:read']({ server, uri: 'fixture://static/pixel.png' });
  expect(pixel.contents[0]).toMatchObject({ uri: 'fixture://static/pixel.png', mimeType: 'image/png' });
  expect(
    Buffer.from(pixel.contents[0]?.blob ?? '', 'base64')
      .subarray(1, 4)
      .toString('latin1'),
  ).toBe('PNG');
  // A template, filled in.
  expect((await h.api['resources:read']({ server, uri: 'fixture://items/grain/rye' })).contents[0]).toMatchObject({ text: '{"category":"grain","id":"rye"}' });
  // A URI the server does not have: its answer, as request-failed.
  await expect(h.api['resources:read']({ server, uri: 'fixture://nope' })).rejects.toMatchObject({
    code: 'request-failed',
    data: { server, uri: 'fixture://nope' },
  });

  // Subscribe → bump → resources:updated → the read shows the new value.
  const updates = record(h, 'resources:updated');
  const counter = 'fixture://counter';
  await h.api['resources:subscribe']({ server, uri: counter });
  expect((await h.api['resources:list'](server)).subscribed).toEqual([counter]);
  const first = textOf(await h.api['tools:call']({ server, tool: 'bump' }));
  await waitFor(() => updates.length >= 1, 10_000, 'resources:updated after bump');
  expect(updates[0]).toEqual<ResourceUpdatedEvent>({ server, uri: counter });
  expect((await h.api['resources:read']({ server, uri: counter })).contents[0]?.text).toBe(first);

  // Unsubscribe → a bump sends nothing; subscribed again → the next bump does (exactly one more event).
  await h.api['resources:unsubscribe']({ server, uri: counter });
  expect((await h.api['resources:list'](server)).subscribed).toEqual([]);
  await h.api['tools:call']({ server, tool: 'bump' });
  await h.api['resources:subscribe']({ server, uri: counter });
  const third = textOf(await h.api['tools:call']({ server, tool: 'bump' }));
  await waitFor(() => updates.length >= 2, 10_000, 'resources:updated after subscribing again');
  expect((await h.api['resources:read']({ server, uri: counter })).contents[0]?.text).toBe(third);
  expect(updates).toHaveLength(2);

  // A resource the server adds: the list is reloaded (features:changed), no restart.
  const changed = record(h, 'features:changed');
  const pid = (await h.api['servers:list']())[0]?.pid;
  const added = textOf(await h.api['tools:call']({ server, tool: 'add-resource' })).replace('added resource ', '');
  expect(added).toMatch(/^fixture:\/\/added\/\d+$/);
  await waitFor(() => changed.some((c) => c.server === server && c.feature === 'resources'), 10_000, 'features:changed for resources');
  expect((await h.api['resources:list'](server)).resources.map((r) => r.uri)).toContain(added);
  const after = (await h.api['servers:list']())[0];
  expect(after?.pid).toBe(pid);
  expect(after?.restarts).toBe(0);

  // Completion: a template's variable by prefix, another given the chosen one, and a prompt's argument.
  const ref = { type: 'resource', uri: 'fixture://items/{category}/{id}' } as const;
  expect((await h.api['completion:complete']({ server, ref, argument: { name: 'category', value: '' } })).values).toEqual(['fruit', 'vegetable', 'grain']);
  expect((await h.api['completion:complete']({ server, ref, argument: { name: 'category', value: 'v' } })).values).toEqual(['vegetable']);
  expect((await h.api['completion:complete']({ server, ref, argument: { name: 'id', value: 'r' }, context: { category: 'grain' } })).values).toEqual([
    'rice',
    'rye',
  ]);
  expect((await h.api['completion:complete']({ server, ref: { type: 'prompt', name: 'greet' }, argument: { name: 'style', value: 'p' } })).values).toEqual([
    'pirate',
  ]);
}

describe.each(ERAS)('resources over stdio ($era era)', ({ era, versionMode }) => {
  it('lists every page and the templates, reads text and blobs, follows a subscription, reloads on list_changed, completes', async () => {
    const h = await hostWith({ features: { command: process.execPath, args: [fixture] } }, { versionMode });
    await resourcesStory(h, era, true);
  }, 30_000);

  it('a subscription survives a restart of the server (subscribed again on connect)', async () => {
    const h = await hostWith({ features: { command: process.execPath, args: [fixture] } }, { versionMode });
    const updates = record(h, 'resources:updated');
    await h.api['resources:subscribe']({ server: 'features', uri: 'fixture://counter' });
    const pid = (await h.api['servers:list']())[0]?.pid;
    await h.api['servers:restart']('features');
    await h.settled('features');
    const [view] = await h.api['servers:list']();
    expect(view).toMatchObject({ status: 'ready', era });
    expect(view?.pid).not.toBe(pid);
    expect((await h.api['resources:list']('features')).subscribed).toEqual(['fixture://counter']);
    // A new process: its counter starts again, and it was told of the subscription.
    expect(textOf(await h.api['tools:call']({ server: 'features', tool: 'bump' }))).toBe('counter: 1');
    await waitFor(() => updates.length >= 1, 10_000, 'resources:updated from the restarted server');
    expect(updates[0]).toEqual({ server: 'features', uri: 'fixture://counter' });
  }, 30_000);
});

describe('resources over Streamable HTTP', () => {
  let stop: () => Promise<void>;
  let url: string;
  beforeAll(async () => {
    ({ url, stop } = await startFeaturesHttp());
  });
  afterAll(() => stop());

  it.each(ERAS)(
    '$era era: the same story over one HTTP server',
    async ({ era, versionMode }) => {
      const h = await hostWith({ features: { url } }, { versionMode });
      await resourcesStory(h, era, false);
    },
    30_000,
  );
});

describe('servers without resources or completions, and server-everything', () => {
  it('a server without resources lists nothing and refuses read, subscribe and completion with not-supported', async () => {
    const h = await hostWith({ calculator: { command: process.execPath, args: [calculatorPath()] } });
    const [view] = await h.api['servers:list']();
    expect(view).toMatchObject({ status: 'ready', capabilities: { resources: false, completions: false } });
    expect(await h.api['resources:list']('calculator')).toEqual({ server: 'calculator', resources: [], templates: [], subscribed: [], canSubscribe: false });
    await expect(h.api['resources:read']({ server: 'calculator', uri: 'x://y' })).rejects.toMatchObject({
      code: 'not-supported',
      message: expect.stringContaining('does not offer resources'),
    });
    await expect(h.api['resources:subscribe']({ server: 'calculator', uri: 'x://y' })).rejects.toMatchObject({ code: 'not-supported' });
    await expect(
      h.api['completion:complete']({ server: 'calculator', ref: { type: 'prompt', name: 'p' }, argument: { name: 'a', value: '' } }),
    ).rejects.toMatchObject({
      code: 'not-supported',
      message: expect.stringContaining('does not offer argument completion'),
    });
    await expect(h.api['resources:list']('nobody')).rejects.toMatchObject({ code: 'unknown-server' });
  }, 30_000);

  it('server-everything over stdio: its resources list (all pages) and a read', async () => {
    const h = await hostWith({ everything: { command: process.execPath, args: [everything] } });
    const listed = await h.api['resources:list']('everything');
    const [view] = await h.api['servers:list']();
    expect(view, view?.error).toMatchObject({ status: 'ready', capabilities: { resources: true } });
    expect(listed.error).toBeUndefined();
    expect(listed.resources.length).toBeGreaterThan(0);
    expect(view?.counts?.resources).toBe(listed.resources.length);
    const first = listed.resources[0];
    if (!first) throw new Error('no resource listed');
    const read = await h.api['resources:read']({ server: 'everything', uri: first.uri });
    expect(read.contents.length).toBeGreaterThan(0);
    expect(read.contents[0]?.uri).toBe(first.uri);
    expect(read.contents[0]?.text ?? read.contents[0]?.blob).toBeTruthy();
  }, 30_000);
});
