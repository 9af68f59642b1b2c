// Server log messages through the host against features-server.mjs (tool `log`: one notifications/message per level,
// logger "fixture"): the configured level asked for on connect (legacy: logging/setLevel; 2026-07-28: each
// request's _meta), logs:set-level at runtime, logs:list paging, batched logs:appended, the server's log file.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { logLevels, type LogEntry, type LogLevel, type StderrLine } from '../../../../src-shared/host-api';
import { featuresEntry, hostWith } from '../../../test-support/features-fixture';
import { tempDir, waitFor } from '../../../test-support/processes';
import { nodeRuntime } from '../../config/runtime';
import { createHost, type Host } from '../../host';
import { MemorySecretStore } from '../../secrets/store';
import { StaticSettings } from '../../settings/store';
import { calculatorPath } from '../../support/paths';

let host: Host | undefined;
afterEach(async () => {
  await host?.dispose();
  host = undefined;
});

const from = (level: LogLevel): LogLevel[] => logLevels.slice(logLevels.indexOf(level));

describe.each([
  { era: 'modern', versionMode: 'auto' },
  { era: 'legacy', versionMode: 'legacy' },
] as const)('logging ($era era)', ({ era, versionMode }) => {
  it('asks for the configured level, keeps what arrives (seq, level, logger, data), announces it and writes it to the log file', async () => {
    ({ host } = await hostWith({ features: featuresEntry([], { logLevel: 'warning' }) }, { versionMode }));
    const appended: LogEntry[] = [];
    host.api.on('logs:appended', (event) => {
      expect(event.server).toBe('features');
      appended.push(...event.entries);
    });
    await host.settled();
    await waitFor(async () => (await host?.api['servers:list']())?.[0]?.logLevel === 'warning', 5000, 'the level in the view');
    const [view] = await host.api['servers:list']();
    expect(view).toMatchObject({ era, capabilities: { logging: true }, logLevel: 'warning' });

    await host.api['tools:call']({ server: 'features', tool: 'log' });
    const entries = await host.api['logs:list']({ server: 'features' });
    expect(entries.map((e) => e.level)).toEqual(from('warning'));
    expect(entries[0]).toMatchObject({ seq: 1, server: 'features', level: 'warning', logger: 'fixture', data: 'a warning message' });
    expect(entries.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
    // The same entries reach listeners, batched (a burst of five is one or two events, never one per message).
    await waitFor(() => appended.length === 5, 5000, 'logs:appended with all five');
    expect(appended).toEqual(entries);

    // Paging: after a seq, and the newest N.
    expect((await host.api['logs:list']({ server: 'features', after: 3 })).map((e) => e.seq)).toEqual([4, 5]);
    expect((await host.api['logs:list']({ server: 'features', after: 1, limit: 2 })).map((e) => e.seq)).toEqual([2, 3]);
    expect((await host.api['logs:list']({ server: 'features', limit: 2 })).map((e) => e.seq)).toEqual([4, 5]);

    const logFile = view?.logFile ?? '';
    await waitFor(
      () => existsSync(logFile) && readFileSync(logFile, 'utf8').includes('[log emergency fixture] a emergency message'),
      5000,
      'the log file lines',
    );
    const lines = readFileSync(logFile, 'utf8');
    expect(lines).toContain('[log warning fixture] a warning message');
    expect(lines).not.toContain('[log info fixture]');
  }, 30_000);

  it('logs:set-level changes the level at once and the view shows it', async () => {
    ({ host } = await hostWith({ features: featuresEntry() }, { versionMode }));
    await host.settled();
    await host.api['tools:call']({ server: 'features', tool: 'log' });
    // Default: info.
    expect((await host.api['logs:list']({ server: 'features' })).map((e) => e.level)).toEqual(from('info'));
    await host.api['logs:set-level']({ server: 'features', level: 'debug' });
    const [view] = await host.api['servers:list']();
    expect(view?.logLevel).toBe('debug');
    await host.api['tools:call']({ server: 'features', tool: 'log' });
    const second = await host.api['logs:list']({ server: 'features', after: 7 });
    expect(second.map((e) => e.level)).toEqual(from('debug'));
    await host.api['logs:set-level']({ server: 'features', level: 'critical' });
    await host.api['tools:call']({ server: 'features', tool: 'log' });
    expect((await host.api['logs:list']({ server: 'features', after: 15 })).map((e) => e.level)).toEqual(from('critical'));
  }, 30_000);
});

describe('logging on a server without it', () => {
  it('the level is still asked for and can be changed (a refusal is only noted in its log file)', async () => {
    ({ host } = await hostWith({ calculator: { command: process.execPath, args: [calculatorPath()] } }));
    await host.settled();
    await waitFor(async () => (await host?.api['servers:list']())?.[0]?.capabilities !== undefined, 5000, 'capabilities');
    expect((await host.api['servers:list']())[0]).toMatchObject({ capabilities: { logging: false }, logLevel: 'info' });
    await host.api['logs:set-level']({ server: 'calculator', level: 'debug' });
    const [view] = await host.api['servers:list']();
    expect(view?.logLevel).toBe('debug');
    expect(view?.stderrTail.join('\n')).not.toContain('logging/setLevel');
    expect(await host.api['logs:list']({ server: 'calculator' })).toEqual([]);
  }, 30_000);
});

describe('stderr beside the log messages', () => {
  it('keeps each stderr line (logs:stderr, logs:appended) with secrets redacted, as in the sidebar tail and the log file', async () => {
    const dataDir = tempDir();
    const config = join(dataDir, 'mcp.json');
    const secret = 'stderr-secret/value+0123456789?';
    const tiny = join(__dirname, '..', '..', 'fixtures', 'tiny-server.mjs');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: { talky: { command: process.execPath, args: [tiny, '--print-env=TALKY_TOKEN'], env: { TALKY_TOKEN: '${secret:talky_token}' } } },
      }),
    );
    const secrets = new MemorySecretStore();
    secrets.set('talky_token', secret);
    host = await createHost({
      mode: 'headless',
      configPath: config,
      dataDir,
      envDir: dataDir,
      settings: new StaticSettings(),
      runtime: nodeRuntime(),
      secrets,
    });
    const announced: StderrLine[] = [];
    host.api.on('logs:appended', (event) => announced.push(...(event.stderr ?? [])));
    await host.settled();
    await waitFor(
      async () => (await host?.api['logs:stderr']({ server: 'talky' }))?.some((l) => l.text.startsWith('basic ')) === true,
      5000,
      'the stderr lines',
    );
    const lines = await host.api['logs:stderr']({ server: 'talky' });
    expect(lines.map((l) => l.text)).toContain('config TALKY_TOKEN=<redacted>');
    expect(lines[0]).toMatchObject({ seq: 1, server: 'talky', time: expect.any(Number) });
    expect((await host.api['logs:stderr']({ server: 'talky', after: 1, limit: 1 })).map((l) => l.seq)).toEqual([2]);
    await waitFor(() => announced.length >= lines.length, 5000, 'logs:appended with the stderr lines');
    const [view] = await host.api['servers:list']();
    const shown = JSON.stringify({ lines, announced, tail: view?.stderrTail });
    expect(view?.stderrTail).toContain('config TALKY_TOKEN=<redacted>');
    for (const form of [secret, Buffer.from(secret).toString('base64'), encodeURIComponent(secret)]) expect(shown).not.toContain(form);
  }, 30_000);

  it('a last line written without a newline before the process ended is kept as a line too', async () => {
    const dataDir = tempDir();
    const config = join(dataDir, 'mcp.json');
    const script = "process.stderr.write('starting\\nfatal: no config'); setTimeout(() => process.exit(3), 50)";
    writeFileSync(config, JSON.stringify({ mcpServers: { crashy: { command: process.execPath, args: ['-e', script] } } }));
    host = await createHost({ mode: 'headless', configPath: config, dataDir, envDir: dataDir, settings: new StaticSettings(), runtime: nodeRuntime() });
    await host.settled();
    await waitFor(
      async () => (await host?.api['logs:stderr']({ server: 'crashy' }))?.some((l) => l.text === 'fatal: no config') === true,
      5000,
      'the unfinished last line in logs:stderr',
    );
    const [view] = await host.api['servers:list']();
    expect(view?.error).toContain('fatal: no config');
  }, 30_000);
});
