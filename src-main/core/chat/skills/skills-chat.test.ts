import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { disposeHarnesses, harness } from '../../../test-support/chat-harness';
import { callTool, say, sequence, type Vendor } from '../../../test-support/fake-providers';
import { tempDir, waitFor } from '../../../test-support/processes';
import { calculatorPath } from '../../support/paths';

/*
 * Skills in the chat end to end: the real AI SDK providers against the scripted fake vendors on loopback, and
 * skills-server.mjs (the SDK's SkillsExtension) as a real server through the real host.
 */

const skillsServer = join(import.meta.dirname, '..', '..', 'fixtures', 'skills-server.mjs');
const serversWith = (variantFile: string) => ({ skills: { command: process.execPath, args: [skillsServer, `--variant-file=${variantFile}`] } });

afterEach(disposeHarnesses);

describe.each<Vendor>(['openai', 'anthropic'])('skills against a fake %s server', (vendor) => {
  it('lists the skills in the system prompt, offers load_skill, and loads a SKILL.md on demand', async () => {
    const h = await harness(vendor, sequence(callTool('load_skill', { server: 'skills', name: 'pdf-forms' }), say('Filled.')), {
      servers: serversWith(join(tempDir(), 'variant')),
    });
    const { finished, runId } = await h.send('Fill in this PDF form');
    expect(finished.status).toBe('done');
    const [first, second] = h.fake.requests;
    const body = JSON.stringify(first?.body);
    expect(body).toContain('- pdf-forms (server \\"skills\\"): Fill in PDF forms field by field');
    expect(body).toContain('- code-review (server \\"skills\\"): Review a change for bugs and style');
    expect(first?.toolNames).toContain('load_skill');
    expect(second?.toolResults[0]?.content).toContain('Fill each field in order (variant 1)');
    const [load] = h.tools(runId);
    expect(load).toMatchObject({ server: 'switchboard', tool: 'load_skill', status: 'done', args: { server: 'skills', name: 'pdf-forms' } });
    // Loading a skill asks no one: it reads instructions the person's server published and the person trusted.
    expect(h.approvalsAsked).toEqual([]);
  }, 60_000);
});

describe('skills and toolsets', () => {
  it("a conversation's toolset offers the skills of its servers only", async () => {
    const h = await harness('openai', sequence(callTool('load_skill', { server: 'skills', name: 'pdf-forms' }), say('ok'), say('ok')), {
      servers: { ...serversWith(join(tempDir(), 'variant')), calculator: { command: process.execPath, args: [calculatorPath()] } },
    });
    await h.host.api['chat:update-settings']({
      toolsets: [
        { name: 'math', servers: ['calculator'] },
        { name: 'docs', tools: ['skills/bump'] },
      ],
    });
    const math = await h.host.api['chat:send']({ text: 'Fill in a form', toolset: 'math' });
    await waitFor(() => h.events.some((e) => e.type === 'run-finished' && e.runId === math.runId), 30_000, 'the turn to finish');
    const body = JSON.stringify(h.fake.requests[0]?.body);
    expect(body).not.toContain('pdf-forms (server');
    expect(h.fake.requests[0]?.toolNames).not.toContain('load_skill');

    // A set that picks one tool of the skills server offers that server's skills.
    await h.host.api['chat:set-toolset'](math.conversationId, 'docs');
    await h.send('Fill in a form', math.conversationId);
    expect(JSON.stringify(h.fake.requests.at(-1)?.body)).toContain('pdf-forms (server');
  }, 60_000);
});

describe('a skill that refers to another', () => {
  it('asks the person before loading the other; allowed: both, denied: a note', async () => {
    const h = await harness(
      'openai',
      sequence(
        callTool('load_skill', { server: 'skills', name: 'code-review' }),
        say('Reviewed.'),
        callTool('load_skill', { server: 'skills', name: 'code-review' }),
        say('Reviewed again.'),
      ),
      { servers: serversWith(join(tempDir(), 'variant')) },
    );
    const allowed = await h.send('Review this');
    expect(allowed.finished.status).toBe('done');
    expect(h.approvalsAsked.map((p) => [p.tool, p.args])).toEqual([['load_skill', { server: 'skills', name: 'pdf-forms', referencedBy: 'code-review' }]]);
    const result = h.fake.requests[1]?.toolResults[0]?.content ?? '';
    expect(result).toContain('Read the diff, then the tests.');
    expect(result).toContain('--- The skill "pdf-forms" (server "skills"), which "code-review" refers to ---');
    expect(result).toContain('Fill each field in order');

    h.decide('deny');
    const denied = await h.send('Review that', allowed.conversationId);
    expect(denied.finished.status).toBe('done');
    const noted = h.fake.requests[3]?.toolResults[0]?.content ?? '';
    expect(noted).toContain('Read the diff, then the tests.');
    expect(noted).toContain('the user did not allow loading it');
    expect(noted).not.toContain('Fill each field in order');
    expect(h.tools(denied.runId).find((p) => p.args.referencedBy === 'code-review')).toMatchObject({ status: 'denied', decision: 'deny' });
  }, 60_000);
});

describe('skills needing review', () => {
  it('are never offered: not in the system prompt, load_skill refuses them, attaching one fails', async () => {
    const variant = join(tempDir(), 'variant');
    const h = await harness('openai', sequence(callTool('load_skill', { server: 'skills', name: 'pdf-forms' }), say('ok')), { servers: serversWith(variant) });
    writeFileSync(variant, '2');
    await h.host.api['servers:restart']('skills');
    await h.host.settled();
    expect((await h.host.api['skills:list']('skills')).skills.find((s) => s.name === 'pdf-forms')?.review?.state).toBe('changed');

    const { finished, runId } = await h.send('Fill in a form');
    expect(finished.status).toBe('done');
    const body = JSON.stringify(h.fake.requests[0]?.body);
    expect(body).not.toContain('pdf-forms (server');
    expect(body).toContain('code-review (server');
    expect(h.tools(runId)[0]).toMatchObject({
      tool: 'load_skill',
      status: 'error',
      error: expect.stringContaining('There is no skill "pdf-forms"') as unknown,
    });

    await expect(h.host.api['chat:send']({ text: 'use it', attachments: [{ server: 'skills', uri: 'skill://pdf-forms/SKILL.md' }] })).rejects.toMatchObject({
      message: expect.stringContaining('changed since it was trusted') as unknown,
    });
  }, 60_000);
});

describe('a skill changed on the server after it was listed', () => {
  it('is refused when loaded (its digest is not the pinned one) and shows as changed', async () => {
    const h = await harness('openai', sequence(callTool('load_skill', { server: 'skills', name: 'pdf-forms' }), say('ok')), {
      servers: serversWith(join(tempDir(), 'variant')),
    });
    expect((await h.host.api['skills:list']('skills')).skills.find((s) => s.name === 'pdf-forms')?.review?.state).toBe('trusted');
    // The catalog changes its SKILL.md; its name and description stay, so no list_changed is sent.
    const bumped = await h.host.api['tools:call']({ server: 'skills', tool: 'bump', args: {} });
    expect(JSON.stringify(bumped.content)).toContain('listChanged\\":false');

    const { runId } = await h.send('Fill in a form');
    expect(h.tools(runId)[0]).toMatchObject({ tool: 'load_skill', status: 'error', error: expect.stringContaining('changed since it was trusted') as unknown });
    expect(h.fake.requests[1]?.toolResults[0]?.content).not.toContain('variant 2');
    await waitFor(
      async () => (await h.host.api['skills:list']('skills')).skills.find((s) => s.name === 'pdf-forms')?.review?.state === 'changed',
      10_000,
      'the skill to show as changed',
    );
  }, 60_000);
});

describe('attaching a skill', () => {
  it('sends its SKILL.md with the message', async () => {
    const h = await harness('anthropic', sequence(say('ok')), { servers: serversWith(join(tempDir(), 'variant')) });
    const started = await h.host.api['chat:send']({ text: 'Use the attached skill', attachments: [{ server: 'skills', uri: 'skill://pdf-forms/SKILL.md' }] });
    expect(started.userMessage.attachments?.[0]).toMatchObject({ server: 'skills', uri: 'skill://pdf-forms/SKILL.md', name: 'pdf-forms' });
    await waitFor(() => h.events.some((e) => e.type === 'run-finished' && e.runId === started.runId), 30_000, 'the turn to finish');
    expect(JSON.stringify(h.fake.requests[0]?.body)).toContain('Fill each field in order (variant 1)');
  }, 60_000);
});
