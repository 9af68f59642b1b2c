import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../host';
import { nodeRuntime } from '../config/runtime';
import { StaticSettings } from '../settings/store';
import { tempDir } from '../../test-support/processes';

const fixture = join(__dirname, '..', 'fixtures', 'features-server.mjs');

describe.each([
  { era: 'modern', versionMode: 'auto' },
  { era: 'legacy', versionMode: 'legacy' },
] as const)('what a ready server shows of itself ($era era)', ({ era, versionMode }) => {
  let host: Host | undefined;
  afterEach(async () => {
    await host?.dispose();
    host = undefined;
  });

  it('capabilities and instructions from the session; outputSchema and execution kept from tools/list', async () => {
    const dataDir = tempDir();
    const config = join(dataDir, 'mcp.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { features: { command: process.execPath, args: [fixture] } } }));
    host = await createHost({
      mode: 'headless',
      configPath: config,
      dataDir,
      envDir: dataDir,
      settings: new StaticSettings(),
      runtime: nodeRuntime(),
      policy: { graceMs: 300, versionMode },
    });
    await host.settled();
    const [view] = await host.api['servers:list']();
    expect(view, view?.error).toMatchObject({
      status: 'ready',
      era,
      capabilities: { tools: true, resources: true, subscribe: true, prompts: true, completions: true, logging: true, tasks: true },
      instructions: expect.stringContaining('Switchboard test fixture') as unknown,
    });
    const tools = Object.fromEntries((view?.tools ?? []).map((t) => [t.name, t]));
    expect(tools.structured?.outputSchema).toMatchObject({ type: 'object', properties: { sum: expect.anything() as unknown } });
    // `execution.taskSupport` is a 2025-11-25 field: the SDK does not carry it on 2026-07-28 (tasks are an extension there).
    if (era === 'legacy') {
      expect(tools.research?.execution).toEqual({ taskSupport: 'required' });
      expect(tools['maybe-task']?.execution).toEqual({ taskSupport: 'optional' });
    }
  }, 20_000);
});
