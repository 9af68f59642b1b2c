import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../host';
import { StaticSettings } from '../settings/store';
import { nodeRuntime } from '../config/runtime';
import { tempDir } from '../../test-support/processes';

const tinyServer = join(process.cwd(), 'src-main', 'core', 'fixtures', 'tiny-server.mjs');

/** A config folder holding an executable script `bin/server.mjs` that runs the tiny test server. */
function configFolder(): string {
  const dir = tempDir();
  mkdirSync(join(dir, 'bin'));
  const script = join(dir, 'bin', 'server.mjs');
  writeFileSync(script, `#!${process.execPath}\nimport ${JSON.stringify(tinyServer)};\n`);
  chmodSync(script, 0o755);
  return dir;
}

describe.skipIf(process.platform === 'win32')(
  `a relative command starts in the config file’s folder${process.platform === 'win32' ? ' (skipped: it starts a script through its #! line, which Windows does not run)' : ''}`,
  () => {
    let host: Host | undefined;
    afterEach(async () => {
      await host?.dispose();
      host = undefined;
    });

    it('finds ./bin/x and bin/x next to the config (the host runs elsewhere), and cwd-relative ones in the cwd', async () => {
      const dir = configFolder();
      // The host's own working folder is the repository, not the config's folder.
      expect(process.cwd()).not.toBe(dir);
      const config = join(dir, 'mcp.json');
      writeFileSync(
        config,
        JSON.stringify({
          mcpServers: {
            dotted: { command: './bin/server.mjs', args: ['--name=dotted'] },
            plain: { command: 'bin/server.mjs', args: ['--name=plain'] },
            incwd: { command: './server.mjs', args: ['--name=incwd'], cwd: 'bin' },
            missing: { command: './bin/nope' },
            pasted: { command: 'npx -y @modelcontextprotocol/server-everything' },
          },
        }),
      );
      host = await createHost({ mode: 'headless', configPath: config, dataDir: dir, envDir: dir, settings: new StaticSettings(), runtime: nodeRuntime() });
      await host.settled();
      const byName = Object.fromEntries((await host.api['servers:list']()).map((v) => [v.name, v]));
      for (const name of ['dotted', 'plain', 'incwd']) {
        expect(byName[name], name).toMatchObject({ status: 'ready' });
        expect(await host.api['tools:call']({ server: name, tool: 'echo', args: { text: 'hi' } })).toMatchObject({
          content: [{ type: 'text', text: `${name}:hi` }],
        });
      }
      expect(byName.missing?.status).toBe('error');
      expect(byName.missing?.error).toBe(
        `Cannot start "./bin/nope": no executable file at ${join(dir, 'bin', 'nope')}. A relative command starts in ${dir} (the server's "cwd", else the config file's folder): correct the path, or give an absolute one.`,
      );
      expect(byName.pasted?.error).toBe(
        'Cannot start "npx -y @modelcontextprotocol/server-everything": "command" holds a whole command line. Put the program in "command" ("npx") and the rest in "args" (["-y","@modelcontextprotocol/server-everything"]); the server form splits a pasted line for you.',
      );
    });
  },
);
