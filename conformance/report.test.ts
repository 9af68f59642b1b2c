import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { argumentsFor, fillForm } from './person';
import { exitCodeOf, failureDetails, judgeSuite, jsonReport, parseBaseline, parseClientList, parseSingleRun, parseSummary, textReport } from './report';

// Shaped like the runner's own output (0.2.0-alpha.12 and 0.1.16 print the same summary lines).
const runnerStdout = `Running requirements 2026-07-28 (5 scenarios) in parallel...

=== SUITE SUMMARY ===

✓ tools_call: 2 passed, 0 failed
✗ auth/metadata-default: 0 passed, 7 failed
✗ sep-2322-client-request-state: 2 passed, 3 failed
✓ request-metadata: 6 passed, 0 failed, 1 warnings
✗ json-schema-2020-12-preservation: 3 passed, 6 failed

Total: 13 passed, 16 failed, 1 warnings
`;

const requirementsList = `Required for 2026-07-28 (6 scenarios, frozen; run at the 2026-07-28 wire):

Server scenarios (test against a server):
  - server-stateless
  - tools-list

Client scenarios (test against a client):
  - tools_call
  - request-metadata
  - auth/metadata-default
  - sep-2322-client-request-state

Run and reported, but never scored:
  added-after-release (1):
    - json-schema-2020-12-preservation [client]
`;

const legacyList = `Client scenarios (test against a client):
  - initialize [2025-06-18,2025-11-25]
  - auth/client-credentials-jwt [extension]
`;

describe('the runner output', () => {
  it('reads one outcome per summary line, warnings included', () => {
    expect(parseSummary(runnerStdout)).toEqual([
      { scenario: 'tools_call', passedChecks: 2, failedChecks: 0, warnings: 0 },
      { scenario: 'auth/metadata-default', passedChecks: 0, failedChecks: 7, warnings: 0 },
      { scenario: 'sep-2322-client-request-state', passedChecks: 2, failedChecks: 3, warnings: 0 },
      { scenario: 'request-metadata', passedChecks: 6, failedChecks: 0, warnings: 1 },
      { scenario: 'json-schema-2020-12-preservation', passedChecks: 3, failedChecks: 6, warnings: 0 },
    ]);
    expect(parseSummary('the runner crashed before its summary')).toEqual([]);
  });

  it('reads a single-scenario run, and nothing from one that broke', () => {
    const stderr = 'Checks:\n…\n\nTest Results:\nPassed: 2/3, 1 failed, 0 warnings\n\n❌ OVERALL: FAILED\n';
    expect(parseSingleRun('sse-retry', stderr)).toEqual({ scenario: 'sse-retry', passedChecks: 2, failedChecks: 1, warnings: 0 });
    expect(parseSingleRun('sse-retry', 'Error: spawn failed')).toBeUndefined();
  });

  it('takes the scored client scenarios of a requirement set, not the unscored ones or the server leg', () => {
    expect(parseClientList(requirementsList)).toEqual(['tools_call', 'request-metadata', 'auth/metadata-default', 'sep-2322-client-request-state']);
    expect(parseClientList(legacyList)).toEqual(['initialize', 'auth/client-credentials-jwt']);
  });
});

describe('judging a suite against the baseline', () => {
  const scored = parseClientList(requirementsList);
  const outcomes = parseSummary(runnerStdout);
  const packageName = '@modelcontextprotocol/conformance@0.2.0-alpha.12';

  it('prints exactly the documented --json shape', () => {
    const verdict = judgeSuite({
      packageName,
      selection: '--requirements 2026-07-28',
      scored,
      outcomes,
      expected: { 'auth/metadata-default': 'needs OAuth discovery' },
    });
    expect(jsonReport([verdict])).toBe(
      '{"suites":[{"package":"@modelcontextprotocol/conformance@0.2.0-alpha.12","selection":"--requirements 2026-07-28","scored":4,"passed":2,"failed":["auth/metadata-default","sep-2322-client-request-state"],"expectedFailures":["auth/metadata-default"]}]}',
    );
    // An unscored scenario's failure (json-schema-2020-12-preservation) counts nowhere.
    expect(verdict.unexpected).toEqual(['sep-2322-client-request-state']);
    expect(exitCodeOf([verdict])).toBe(1);
  });

  it('passes when the only failures are the expected ones', () => {
    const verdict = judgeSuite({
      packageName,
      selection: '--requirements 2026-07-28',
      scored: ['tools_call', 'auth/metadata-default'],
      outcomes,
      expected: { 'auth/metadata-default': 'needs OAuth discovery' },
    });
    expect(verdict).toMatchObject({ unexpected: [], stale: [], unknown: [] });
    expect(exitCodeOf([verdict])).toBe(0);
  });

  it('fails on a baseline entry that passes, and says to remove it', () => {
    const verdict = judgeSuite({ packageName, selection: '--suite all', scored: ['tools_call'], outcomes, expected: { tools_call: 'was failing once' } });
    expect(verdict.stale).toEqual(['tools_call']);
    expect(exitCodeOf([verdict])).toBe(1);
    expect(
      textReport(
        [verdict],
        () => undefined,
        () => ({ tools_call: 'was failing once' }),
      ),
    ).toContain('NOW PASSES        tools_call — remove it from conformance/expected-failures.json');
  });

  it('fails on a baseline entry this selection does not score', () => {
    const verdict = judgeSuite({
      packageName,
      selection: '--suite all',
      scored: ['tools_call'],
      outcomes,
      expected: { 'auth/gone': 'no longer in the suite' },
    });
    expect(verdict.unknown).toEqual(['auth/gone']);
    expect(exitCodeOf([verdict])).toBe(1);
  });

  it('counts a scored scenario the run never reported as failed', () => {
    const verdict = judgeSuite({ packageName, selection: '--suite all', scored: ['tools_call', 'initialize'], outcomes, expected: {} });
    expect(verdict.report).toMatchObject({ scored: 2, passed: 1, failed: ['initialize'] });
    expect(verdict.unexpected).toEqual(['initialize']);
  });
});

describe('the baseline file', () => {
  it('lists only OAuth scenarios, each with its reason, for the two pinned suites', () => {
    const baseline = parseBaseline(readFileSync(join(import.meta.dirname, 'expected-failures.json'), 'utf8'));
    expect(Object.keys(baseline.suites).sort()).toEqual(['@modelcontextprotocol/conformance@0.1.16', '@modelcontextprotocol/conformance@0.2.0-alpha.12']);
    for (const entries of Object.values(baseline.suites)) {
      for (const [scenario, reason] of Object.entries(entries)) {
        expect(scenario).toMatch(/^auth\//);
        expect(reason).toMatch(/^needs OAuth/);
      }
    }
  });

  it('refuses a non-OAuth entry and an entry without a reason', () => {
    const suite = '@modelcontextprotocol/conformance@0.1.16';
    expect(() => parseBaseline(JSON.stringify({ suites: { [suite]: { tools_call: 'the tool is hard to call' } } }))).toThrow(/only scenarios that need OAuth/);
    expect(() => parseBaseline(JSON.stringify({ suites: { [suite]: { 'auth/metadata-default': '' } } }))).toThrow(/needs its reason/);
    expect(() => parseBaseline('{')).toThrow(/not valid JSON/);
  });
});

describe('failure details from the runner results folder', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('names each scenario (auth/… ones sit in a subfolder) with its first failing checks', () => {
    dir = mkdtempSync(join(tmpdir(), 'conformance-report-'));
    const write = (folder: string, checks: unknown): void => {
      mkdirSync(join(dir ?? '', folder), { recursive: true });
      writeFileSync(join(dir ?? '', folder, 'checks.json'), JSON.stringify(checks));
    };
    write('tools_call-2026-12-01T10-20-59-970Z', [{ id: 'tool-add-numbers', status: 'SUCCESS' }]);
    write('auth/metadata-default-2026-12-01T10-20-59-970Z', [
      { id: 'incoming-request', status: 'INFO' },
      { id: 'prm-pathbased-requested', status: 'FAILURE', errorMessage: 'Expected Check Missing' },
    ]);
    expect([...failureDetails(dir)]).toEqual([['auth/metadata-default', 'prm-pathbased-requested: Expected Check Missing']]);
  });
});

describe('the test person', () => {
  it('leaves a form’s defaulted fields to the core (SEP-1034) and gives every other field a value of its type', () => {
    expect(
      fillForm({
        type: 'object',
        properties: {
          name: { type: 'string', default: 'John Doe' },
          age: { type: 'integer', default: 30 },
          confirmed: { type: 'boolean' },
          color: {
            type: 'string',
            oneOf: [
              { const: 'red', title: 'Red' },
              { const: 'blue', title: 'Blue' },
            ],
          },
          email: { type: 'string', format: 'email' },
        },
      }),
    ).toEqual({ confirmed: true, color: 'red', email: 'test.person@example.com' });
  });

  it('calls a tool with a value for each required parameter', () => {
    expect(
      argumentsFor({ type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' }, note: { type: 'string' } }, required: ['a', 'b'] }),
    ).toEqual({ a: 1, b: 1 });
  });
});
