/**
 * Scoring for `npm run conformance` (scripts/conformance.mjs), kept free of I/O so it can be tested without the
 * suite: reading the runner's output, judging each suite against the expected-failures baseline, and the exact
 * `--json` shape documented in docs/conformance.md.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { z } from 'zod';

/** One scenario's line of the runner's `=== SUITE SUMMARY ===` (`✓ name: 2 passed, 0 failed[, 1 warnings]`). */
export interface ScenarioOutcome {
  scenario: string;
  passedChecks: number;
  failedChecks: number;
  warnings: number;
}

/** One suite in the `--json` output: exactly these keys, in this order. */
export interface SuiteReport {
  package: string;
  selection: string;
  scored: number;
  passed: number;
  /** Every scored scenario that did not pass (the expected ones among them too). */
  failed: string[];
  /** Those of `failed` that the baseline expects (OAuth). */
  expectedFailures: string[];
}

export interface SuiteVerdict {
  report: SuiteReport;
  /** Failed, and not in the baseline: a regression (exit 1). */
  unexpected: string[];
  /** In the baseline, but passed: remove the entry (exit 1). */
  stale: string[];
  /** In the baseline, but not a scored scenario of this suite: remove the entry (exit 1). */
  unknown: string[];
}

export interface JsonReport {
  suites: SuiteReport[];
}

/**
 * The runner's summary lines. The runner prints one per scenario it ran, after `=== SUITE SUMMARY ===`; a scenario
 * passes when none of its checks is a FAILURE (the runner's own rule for its exit code and its baselines).
 */
export function parseSummary(stdout: string): ScenarioOutcome[] {
  const start = stdout.indexOf('=== SUITE SUMMARY ===');
  if (start === -1) return [];
  const outcomes: ScenarioOutcome[] = [];
  for (const line of stdout.slice(start).split('\n')) {
    const match = /^[✓✗] (\S+): (\d+) passed, (\d+) failed(?:, (\d+) warnings)?\s*$/.exec(line.trim());
    if (!match) continue;
    const [, scenario = '', passed = '0', failed = '0', warnings = '0'] = match;
    outcomes.push({ scenario, passedChecks: Number(passed), failedChecks: Number(failed), warnings: Number(warnings) });
  }
  return outcomes;
}

/**
 * A single-scenario run's result (`client --scenario NAME`: `Passed: 3/3, 0 failed, 0 warnings` on stderr), as an
 * outcome; undefined when the run printed none (it broke).
 */
export function parseSingleRun(scenario: string, output: string): ScenarioOutcome | undefined {
  const match = /^Passed: (\d+)\/\d+, (\d+) failed, (\d+) warnings/m.exec(output);
  if (!match) return undefined;
  return { scenario, passedChecks: Number(match[1]), failedChecks: Number(match[2]), warnings: Number(match[3]) };
}

/**
 * The client scenarios of a `list` output: the `Client scenarios` section's `  - name` lines (0.1.x prints
 * `  - name [versions]`; `list --requirements REV` prints the scored ones there and the unscored ones below).
 */
export function parseClientList(listOutput: string): string[] {
  const lines = listOutput.split('\n');
  const start = lines.findIndex((l) => l.startsWith('Client scenarios'));
  if (start === -1) return [];
  const names: string[] = [];
  for (const line of lines.slice(start + 1)) {
    const match = /^ {2}- (\S+)(?: \[.*\])?\s*$/.exec(line);
    if (!match) break;
    names.push(match[1] ?? '');
  }
  return names;
}

/** `conformance/expected-failures.json`: per suite package, scenario → why it is expected to fail. */
export const baselineSchema = z
  .object({
    $comment: z.string().optional(),
    suites: z.record(
      z.string().regex(/^@modelcontextprotocol\/conformance@\S+$/, 'must be "@modelcontextprotocol/conformance@VERSION"'),
      z.record(z.string(), z.string().min(10, 'needs its reason')).superRefine((entries, ctx) => {
        for (const scenario of Object.keys(entries)) {
          if (!scenario.startsWith('auth/')) {
            ctx.addIssue({
              code: 'custom',
              path: [scenario],
              message: 'only scenarios that need OAuth ("auth/…") may be expected to fail; every other scored scenario must pass',
            });
          }
        }
      }),
    ),
  })
  .strict();
export type Baseline = z.infer<typeof baselineSchema>;

export function parseBaseline(text: string, file = 'conformance/expected-failures.json'): Baseline {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  const parsed = baselineSchema.safeParse(raw);
  if (!parsed.success) {
    throw new Error(`${file}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`);
  }
  return parsed.data;
}

/** Judges one suite's run: what passed, what failed, what the baseline expected, what is stale. */
export function judgeSuite(input: {
  packageName: string;
  selection: string;
  /** The scenarios this selection scores (a scored scenario missing from the run counts as failed). */
  scored: readonly string[];
  outcomes: readonly ScenarioOutcome[];
  expected: Readonly<Record<string, string>>;
}): SuiteVerdict {
  const byName = new Map(input.outcomes.map((o) => [o.scenario, o]));
  const passedNames = input.scored.filter((name) => {
    const outcome = byName.get(name);
    return outcome !== undefined && outcome.failedChecks === 0;
  });
  const failed = input.scored.filter((name) => !passedNames.includes(name));
  const expectedFailures = failed.filter((name) => name in input.expected);
  const scoredSet = new Set(input.scored);
  return {
    report: {
      package: input.packageName,
      selection: input.selection,
      scored: input.scored.length,
      passed: passedNames.length,
      failed,
      expectedFailures,
    },
    unexpected: failed.filter((name) => !(name in input.expected)),
    stale: passedNames.filter((name) => name in input.expected),
    unknown: Object.keys(input.expected).filter((name) => !scoredSet.has(name)),
  };
}

/** The `--json` document (its key order is part of the documented shape). */
export function jsonReport(verdicts: readonly SuiteVerdict[]): string {
  const report: JsonReport = { suites: verdicts.map((v) => v.report) };
  return JSON.stringify(report);
}

/** 0 when every suite is as the baseline says; 1 on a regression or a stale/unknown baseline entry. */
export function exitCodeOf(verdicts: readonly SuiteVerdict[]): 0 | 1 {
  return verdicts.some((v) => v.unexpected.length > 0 || v.stale.length > 0 || v.unknown.length > 0) ? 1 : 0;
}

/** What a person reads: the score per suite, each failure with its reason, and what to do about the baseline. */
export function textReport(
  verdicts: readonly SuiteVerdict[],
  why: (suite: string, scenario: string) => string | undefined,
  expected: (suite: string) => Readonly<Record<string, string>>,
): string {
  const lines: string[] = [];
  for (const v of verdicts) {
    const r = v.report;
    lines.push(`${r.package} ${r.selection}: ${r.passed} / ${r.scored} client scenarios pass`);
    const reasons = expected(r.package);
    for (const name of r.expectedFailures) lines.push(`  expected failure  ${name} — ${reasons[name] ?? ''}`);
    for (const name of v.unexpected) lines.push(`  FAILED            ${name}${why(r.package, name) ? ` — ${why(r.package, name)}` : ''}`);
    for (const name of v.stale) lines.push(`  NOW PASSES        ${name} — remove it from conformance/expected-failures.json`);
    for (const name of v.unknown)
      lines.push(`  NOT SCORED HERE   ${name} — in conformance/expected-failures.json for ${r.package}, but this selection does not score it: remove it`);
  }
  return lines.join('\n');
}

/**
 * The first failing checks of each scenario, from the runner's `-o DIR` results (`DIR/<scenario>-<timestamp>/
 * checks.json`; a scenario named `auth/x` sits in `DIR/auth/`). For explaining an unexpected failure.
 */
export function failureDetails(outputDir: string, limit = 3): Map<string, string> {
  const details = new Map<string, string>();
  const checkSchema = z.array(
    z.object({ id: z.string(), status: z.string(), description: z.string().optional(), errorMessage: z.string().optional() }).loose(),
  );
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      if (!statSync(path).isDirectory()) continue;
      const checksFile = join(path, 'checks.json');
      let text: string | undefined;
      try {
        text = readFileSync(checksFile, 'utf8');
      } catch {
        walk(path);
        continue;
      }
      const scenario = relative(outputDir, path)
        .split(sep)
        .join('/')
        .replace(/-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/, '');
      const parsed = checkSchema.safeParse(JSON.parse(text));
      if (!parsed.success) continue;
      const failing = parsed.data.filter((c) => c.status === 'FAILURE').slice(0, limit);
      if (failing.length > 0) details.set(scenario, failing.map((c) => `${c.id}: ${c.errorMessage ?? c.description ?? 'failed'}`).join('; '));
    }
  };
  walk(outputDir);
  return details;
}
