import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliMain, runPiped } from '../../test-support/cli-process';
import { tempDir } from '../../test-support/processes';

/*
 * What an unsandboxed server can read of the host, and what it cannot. A server running as the same user may read
 * /proc/<host pid>/environ: the environment Switchboard was started with, every variable exported in that shell
 * included (the README says so, and points to the sandbox, whose pid namespace hides the host's /proc). The keys in
 * the `.env` files are never there: they are parsed into a private object, never into the environment. A real CLI
 * host (run in a folder with a `.env`, its data folder holding another) spawns a real unsandboxed server that reads
 * its host's environ.
 */

const fixture = join(import.meta.dirname, '..', 'fixtures', 'host-environ-server.mjs');

const workingKey = 'sk-ant-working-folder-dotenv-0123456789';
const dataKey = 'sk-openai-data-folder-dotenv-0123456789';
const otherSecret = 'github-token-in-dotenv-0123456789';
const exported = 'exported-in-the-shell-0123456789';

describe.skipIf(process.platform !== 'linux')(
  `an unsandboxed server reading /proc/<host pid>/environ${process.platform === 'linux' ? '' : ' (skipped: /proc/<pid>/environ is Linux only)'}`,
  () => {
    it('finds what was exported in the shell, never a key from either .env file', async () => {
      const home = tempDir();
      const config = join(home, 'mcp.json');
      writeFileSync(config, JSON.stringify({ mcpServers: { reader: { command: process.execPath, args: [fixture] } } }));
      const dataDir = join(home, '.config', 'Switchboard');
      mkdirSync(dataDir, { recursive: true });
      writeFileSync(join(dataDir, '.env'), `OPENAI_API_KEY=${dataKey}\n`);
      const working = tempDir('switchboard-repo-');
      writeFileSync(join(working, '.env'), `ANTHROPIC_API_KEY=${workingKey}\nGITHUB_TOKEN=${otherSecret}\n`);
      const env = { PATH: process.env.PATH ?? '', HOME: home, EXPORTED_API_TOKEN: exported };

      const r = await runPiped([cliMain, '--config', config, 'call', 'reader', 'host-environ', JSON.stringify({ marker: cliMain })], env, { cwd: working });
      expect(r.status, r.stderr).toBe(0);
      const seen = JSON.parse(r.stdout) as { pid: number; cmdline: string; environ: string[] };
      // It read the host itself (the CLI process), not some other ancestor.
      expect(seen.cmdline).toContain(cliMain);
      // The limit the README states: an exported variable is readable there.
      expect(seen.environ).toContain(`EXPORTED_API_TOKEN=${exported}`);
      // What is promised: nothing of the .env files.
      const text = seen.environ.join('\n');
      for (const value of [workingKey, dataKey, otherSecret]) expect(text).not.toContain(value);
      expect(seen.environ.some((e) => /^(ANTHROPIC_API_KEY|OPENAI_API_KEY|GITHUB_TOKEN)=/.test(e))).toBe(false);
    });
  },
);
