// prompts:list / prompts:get through the host against features-server.mjs, in both protocol eras: arguments as
// listed, the messages with their content blocks, refused arguments naming what is wrong, and prompts/list_changed.
import { afterEach, describe, expect, it } from 'vitest';
import type { FeaturesChangedEvent } from '../../../../src-shared/host-api';
import { featuresEntry, hostWith } from '../../../test-support/features-fixture';
import { everythingEntry, waitFor } from '../../../test-support/processes';
import type { Host } from '../../host';
import { calculatorPath } from '../../support/paths';

let host: Host | undefined;
afterEach(async () => {
  await host?.dispose();
  host = undefined;
});

describe.each([
  { era: 'modern', versionMode: 'auto' },
  { era: 'legacy', versionMode: 'legacy' },
] as const)('prompts ($era era)', ({ era, versionMode }) => {
  it('lists prompts with their arguments and gets one with arguments (text and an embedded resource)', async () => {
    ({ host } = await hostWith({ features: featuresEntry() }, { versionMode }));
    await host.settled();
    // Asked at once after ready: waits for the connect-time load (not an empty list).
    const listed = await host.api['prompts:list']('features');
    const [view] = await host.api['servers:list']();
    expect(view, view?.error).toMatchObject({ status: 'ready', era, capabilities: { prompts: true }, counts: { prompts: 2 } });
    expect(listed.error).toBeUndefined();
    expect(listed.prompts).toEqual([
      {
        name: 'greet',
        title: 'Greet',
        description: 'A greeting for someone',
        arguments: [
          { name: 'name', description: 'Who to greet', required: true },
          { name: 'style', description: 'formal, casual or pirate', required: false },
        ],
      },
      {
        name: 'summarize-resource',
        title: 'Summarize a resource',
        description: 'Asks for a summary of a resource, embedded',
        arguments: [{ name: 'uri', description: 'The resource URI', required: true }],
      },
    ]);

    expect(await host.api['prompts:get']({ server: 'features', name: 'greet', args: { name: 'Ann', style: 'pirate' } })).toEqual({
      description: 'A greeting',
      messages: [{ role: 'user', content: { type: 'text', text: 'Please greet me like this: Ahoy, Ann!' } }],
    });
    // The optional argument left out.
    const plain = await host.api['prompts:get']({ server: 'features', name: 'greet', args: { name: 'Bo' } });
    expect(plain.messages[0]?.content).toEqual({ type: 'text', text: 'Please greet me like this: Hi Bo!' });
    const summary = await host.api['prompts:get']({ server: 'features', name: 'summarize-resource', args: { uri: 'fixture://static/hello.txt' } });
    expect(summary.messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Summarize this resource:' } },
      {
        role: 'user',
        content: { type: 'resource', resource: { uri: 'fixture://static/hello.txt', mimeType: 'text/plain', text: 'Hello from the features fixture.\n' } },
      },
    ]);
  }, 30_000);

  it('refuses a missing required argument, an unknown one and an unknown prompt, naming them', async () => {
    ({ host } = await hostWith({ features: featuresEntry() }, { versionMode }));
    await host.settled();
    const get = host.api['prompts:get'];
    await expect(get({ server: 'features', name: 'greet', args: { style: 'formal' } })).rejects.toMatchObject({
      code: 'invalid-argument',
      message: 'The prompt "greet" of server "features" needs the argument "name".',
      data: { server: 'features', prompt: 'greet', missing: ['name'] },
    });
    await expect(get({ server: 'features', name: 'greet', args: { name: 'Ann', mood: 'happy' } })).rejects.toMatchObject({
      code: 'invalid-argument',
      message: expect.stringContaining('has no argument "mood". Its arguments: name, style.'),
    });
    await expect(get({ server: 'features', name: 'nope', args: {} })).rejects.toMatchObject({
      code: 'invalid-argument',
      message: 'Server "features" has no prompt "nope". Its prompts: greet, summarize-resource.',
    });
  }, 30_000);

  it('a prompt the server adds (prompts/list_changed) is listed, announced and can be got without a restart', async () => {
    ({ host } = await hostWith({ features: featuresEntry() }, { versionMode }));
    const changed: FeaturesChangedEvent[] = [];
    host.api.on('features:changed', (event) => changed.push(event));
    await host.settled();
    await host.api['prompts:list']('features');
    changed.length = 0;
    await host.api['tools:call']({ server: 'features', tool: 'add-prompt' });
    await waitFor(() => changed.some((e) => e.server === 'features' && e.feature === 'prompts'), 10_000, 'features:changed for prompts');
    expect((await host.api['prompts:list']('features')).prompts.map((p) => p.name)).toEqual(['greet', 'summarize-resource', 'extra-prompt-1']);
    const got = await host.api['prompts:get']({ server: 'features', name: 'extra-prompt-1', args: {} });
    expect(got.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'extra-prompt-1 says hello' } }]);
    const [view] = await host.api['servers:list']();
    expect(view).toMatchObject({ restarts: 0, counts: { prompts: 3 } });
  }, 30_000);
});

describe('prompts on a server without them', () => {
  it('lists none, without an error', async () => {
    const calculator = { command: process.execPath, args: [calculatorPath()] };
    ({ host } = await hostWith({ calculator }));
    await host.settled();
    expect(await host.api['prompts:list']('calculator')).toEqual({ server: 'calculator', prompts: [] });
    await expect(host.api['prompts:get']({ server: 'calculator', name: 'greet', args: {} })).rejects.toMatchObject({
      code: 'invalid-argument',
      message: expect.stringContaining('Its prompts: none.'),
    });
  }, 30_000);
});

describe('prompts of server-everything (stdio)', () => {
  it('a prompt with a required and an optional argument, and one with an embedded resource', async () => {
    ({ host } = await hostWith({ everything: { command: process.execPath, args: [everythingEntry] } }));
    await host.settled();
    const { prompts } = await host.api['prompts:list']('everything');
    expect(prompts.find((p) => p.name === 'args-prompt')?.arguments).toEqual([
      { name: 'city', description: 'Name of the city', required: true },
      { name: 'state', required: false },
    ]);
    const weather = await host.api['prompts:get']({ server: 'everything', name: 'args-prompt', args: { city: 'Oslo', state: 'Oslo' } });
    expect(weather.messages).toEqual([{ role: 'user', content: { type: 'text', text: expect.stringContaining('Oslo') } }]);
    await expect(host.api['prompts:get']({ server: 'everything', name: 'args-prompt', args: {} })).rejects.toMatchObject({ data: { missing: ['city'] } });
    const embedded = await host.api['prompts:get']({ server: 'everything', name: 'resource-prompt', args: { resourceType: 'Text', resourceId: '1' } });
    expect(embedded.messages[1]).toEqual({
      role: 'user',
      content: { type: 'resource', resource: expect.objectContaining({ uri: expect.any(String), text: expect.stringContaining('Resource 1') }) },
    });
  }, 30_000);
});
