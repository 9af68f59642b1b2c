// includeContext in sampling/createMessage (2025-11-25, soft-deprecated; Switchboard declares `sampling.context`):
// the asked-for context — the server's (or every ready server's) name, instructions and tool names — is added to
// the system prompt, shown to the person in the request before anything runs, and reaches the model.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PendingRequestView } from '../../../src-shared/contract/requests';
import { askingHosts, everything, textOf } from '../../test-support/asking-host';

const start = askingHosts();
const asker = { command: process.execPath, args: [join(__dirname, '..', 'fixtures', 'task-asking-server.mjs')] };

const systemPromptOf = (r: PendingRequestView | undefined): string | undefined => (r?.kind === 'sampling' ? r.payload.systemPrompt : undefined);
const systemSentToModel = (body: Record<string, unknown>): string => JSON.stringify(body.messages ?? body.input ?? body.system ?? body.instructions ?? body);

describe('includeContext', () => {
  it("allServers: every ready server's name, instructions and tools, shown to the person and sent to the model", async () => {
    const { host: h, seen, fake } = await start({ servers: { asker, everything } });
    const result = await h.api['tools:call']({ server: 'asker', tool: 'ask-model', args: { scope: 'allServers' } });
    expect(textOf(result)).toBe('model said: A fine answer from the fake model.');
    const shown = systemPromptOf(seen[0]);
    expect(shown).toMatch(
      /^Be brief\.\n\nContext from the connected MCP servers \(includeContext "allServers"\):\nServer "asker" \(task-asking 1\.0\.0\):\n {2}Instructions: Ask the person for names with the form tools\.\n {2}Tools: cancel-form, task-form, ask-model, unknown-task\nServer "everything" /,
    );
    expect(shown).toContain('trigger-sampling-request');
    expect(seen[0]).toMatchObject({ kind: 'sampling', payload: { includeContext: 'allServers' } });
    expect(systemSentToModel(fake.requests[0]?.body ?? {})).toContain('Instructions: Ask the person for names with the form tools.');
  });

  it('thisServer: only the server that asked', async () => {
    const { host: h, seen } = await start({ servers: { asker, everything } });
    await h.api['tools:call']({ server: 'asker', tool: 'ask-model', args: { scope: 'thisServer' } });
    const shown = systemPromptOf(seen[0]);
    expect(shown).toContain('Context from the MCP server that asked (includeContext "thisServer"):\nServer "asker"');
    expect(shown).not.toContain('everything');
  });

  it("none (or absent): the system prompt is the server's own", async () => {
    const { host: h, seen } = await start({ servers: { asker } });
    await h.api['tools:call']({ server: 'asker', tool: 'ask-model', args: { scope: 'none' } });
    await h.api['tools:call']({ server: 'asker', tool: 'ask-model', args: {} });
    expect(seen.filter((r) => r.kind === 'sampling').map(systemPromptOf)).toEqual(['Be brief.', 'Be brief.']);
  });

  it('with "mode": "allow" (no one approves) allServers is narrowed to thisServer, with a note', async () => {
    const { host: h, fake } = await start({ servers: { asker: { ...asker, sampling: { mode: 'allow' } }, everything } });
    const result = await h.api['tools:call']({ server: 'asker', tool: 'ask-model', args: { scope: 'allServers' } });
    expect(textOf(result)).toBe('model said: A fine answer from the fake model.');
    const sent = systemSentToModel(fake.requests[0]?.body ?? {});
    expect(sent).toContain('includeContext \\"thisServer\\"');
    expect(sent).not.toContain('trigger-sampling-request');
    const view = (await h.api['servers:list']()).find((v) => v.name === 'asker');
    expect(view?.stderrTail.join('\n')).toContain('includeContext "allServers" was narrowed to "thisServer"');
  });
});
