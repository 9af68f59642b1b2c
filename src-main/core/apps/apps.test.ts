import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ToolInfo } from '../../../src-shared/host-api';
import { toHostError } from '../errors';
import { createHost, type Host } from '../host';
import { nodeRuntime } from '../config/runtime';
import { StaticSettings } from '../settings/store';
import { scanTool } from '../trust/hidden-text';
import { canonicalJson, definitionOf, hashDefinition } from '../trust/pins';
import { tempDir, waitFor } from '../../test-support/processes';
import { createHash } from 'node:crypto';

const fixture = join(__dirname, '..', 'fixtures', 'apps-server.mjs');

let host: Host | undefined;
afterEach(async () => {
  await host?.dispose();
  host = undefined;
});

/** A host over the apps fixture; the clock's HTML variant is read from a file the test can rewrite. */
async function appsHost(dataDir = tempDir(), variant = '1'): Promise<{ host: Host; dataDir: string; setVariant(v: string): void }> {
  const variantFile = join(dataDir, 'variant.txt');
  const setVariant = (v: string): void => writeFileSync(variantFile, v);
  setVariant(variant);
  const configPath = join(dataDir, 'mcp.json');
  writeFileSync(configPath, JSON.stringify({ mcpServers: { apps: { command: process.execPath, args: [fixture, `--variant-file=${variantFile}`] } } }));
  host = await createHost({
    mode: 'headless',
    configPath,
    dataDir,
    envDir: dataDir,
    settings: new StaticSettings(),
    runtime: nodeRuntime(),
    watchConfig: false,
    policy: { graceMs: 300, versionMode: 'legacy' },
  });
  await host.settled();
  return { host, dataDir, setVariant };
}

async function toolsOf(h: Host): Promise<ToolInfo[]> {
  const [view] = await h.api['servers:list']();
  expect(view?.status, view?.error).toBe('ready');
  return view?.tools ?? [];
}

const byName = (tools: ToolInfo[], name: string): ToolInfo | undefined => tools.find((t) => t.name === name);

describe('MCP Apps: tools keep _meta, their UI resources are read, checked and pinned', () => {
  it("keeps a tool's _meta and a result's _meta", async () => {
    const { host: h } = await appsHost();
    const tools = await toolsOf(h);
    expect(byName(tools, 'show_clock')?._meta).toEqual({ ui: { resourceUri: 'ui://apps/clock.html' } });
    expect(byName(tools, 'plain')?._meta).toBeUndefined();
    const result = await h.api['tools:call']({ server: 'apps', tool: 'show_clock', args: {} });
    expect(result._meta).toEqual({ 'example.com/stamp': 'fixed' });
  });

  it('a tool without _meta.ui hashes as it did before tools kept _meta (existing pin files still match)', () => {
    const plain: ToolInfo = { name: 'plain', description: 'A tool', inputSchema: { type: 'object' }, _meta: { other: 1 } };
    const before = createHash('sha256')
      .update(canonicalJson({ name: 'plain', description: 'A tool', inputSchema: { type: 'object' } }), 'utf8')
      .digest('hex');
    expect(hashDefinition(definitionOf(plain))).toBe(before);
    expect(hashDefinition(definitionOf({ ...plain, _meta: { ui: { resourceUri: 'ui://a/b' } } }))).not.toBe(before);
    // Its text is checked for hidden characters like the rest of the definition.
    expect(scanTool({ ...plain, _meta: { ui: { resourceUri: 'ui://a/b\u200B' } } }).map((f) => f.where)).toEqual(['_meta.ui.resourceUri']);
  });

  it('never offers an app-only tool to the model and refuses it as a direct call, saying it is for its app', async () => {
    const { host: h } = await appsHost();
    const offered = h.chat.offeredTools().map((t) => t.tool);
    expect(offered).toContain('show_clock');
    expect(offered).not.toContain('refresh_clock');
    const failure = await h.api['tools:call']({ server: 'apps', tool: 'refresh_clock', args: {} }).then(
      () => undefined,
      (error: unknown) => toHostError(error),
    );
    expect(failure).toMatchObject({ code: 'not-supported', data: { reason: 'app-only' } });
    expect(failure?.message).toContain('only for its app');
    // Still listed (the tools output marks it).
    expect(byName(await toolsOf(h), 'refresh_clock')).toBeDefined();
  });

  it('apps:list checks each UI resource (mime, CSP, permissions) and apps:read gives the validated HTML', async () => {
    const { host: h } = await appsHost();
    const apps = await h.api['apps:list']({ server: 'apps' });
    expect(apps.map((a) => [a.tool, a.status, a.visibility])).toEqual([
      ['show_clock', 'ok', ['model', 'app']],
      ['broken_view', 'invalid', ['model', 'app']],
      ['refresh_clock', 'ok', ['app']],
      ['slow_refresh', 'ok', ['app']],
    ]);
    const clock = apps[0];
    expect(clock).toMatchObject({
      resourceUri: 'ui://apps/clock.html',
      csp: { connectDomains: ['https://api.example.com'], resourceDomains: ['https://cdn.example.com'] },
      permissions: { clipboardWrite: {} },
      prefersBorder: true,
      review: 'trusted',
      digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
    });
    expect(apps[1]?.problem).toContain('"text/html"');
    expect(apps[1]?.problem).toContain('text/html;profile=mcp-app');
    const read = await h.api['apps:read']({ server: 'apps', tool: 'show_clock' });
    expect(read.html).toContain('clock variant 1');
    expect(read.digest).toBe(clock?.digest);
    await expect(h.api['apps:read']({ server: 'apps', tool: 'broken_view' })).rejects.toThrow(/mime type/);
  });

  it('a changed app HTML makes its tools changed (appHtml) until trusted; a resources list_changed reads it again', async () => {
    const dataDir = tempDir();
    const first = await appsHost(dataDir);
    expect(byName(await toolsOf(first.host), 'show_clock')?.review?.state).toBe('trusted');
    first.setVariant('2');
    await first.host.api['servers:restart']('apps');
    await first.host.settled();
    const clock = byName(await toolsOf(first.host), 'show_clock');
    expect(clock?.review).toMatchObject({ state: 'changed', changed: ['appHtml'] });
    expect(first.host.chat.offeredTools().map((t) => t.tool)).not.toContain('show_clock');
    await expect(first.host.api['apps:read']({ server: 'apps', tool: 'show_clock' })).rejects.toThrow(/changed since it was trusted/);
    await first.host.api['tools:trust']({ server: 'apps' });
    expect(byName(await toolsOf(first.host), 'show_clock')?.review?.state).toBe('trusted');
    expect((await first.host.api['apps:read']({ server: 'apps', tool: 'show_clock' })).html).toContain('clock variant 2');

    // The server changes its HTML while running and says its resources changed: read again, changed again.
    first.setVariant('3');
    await first.host.api['tools:call']({ server: 'apps', tool: 'bump', args: {} });
    await waitFor(async () => byName(await toolsOf(first.host), 'show_clock')?.review?.state === 'changed');
  });
});
