/**
 * Runs the cost measurement or the consistency rows over one or more
 * targets. Each target is isolated: one that never answers, exits, writes
 * garbage or floods its listing becomes a failed outcome with a named code,
 * and the next target is measured as if nothing happened.
 */
import { execFileSync } from 'node:child_process';
import { cpus } from 'node:os';
import { judgeConsistency } from './consistency-rows.js';
import { probeConsistency } from './consistency-probe.js';
import { resolveIdentities } from './target-config.js';
import type { TargetConfig } from './target-config.js';
import { TargetFailure } from './target-failure.js';
import { TargetReportSchema } from './target-report-schema.js';
import type { TargetOutcome, TargetReport } from './target-report-schema.js';
import { hasSizePlaceholder, atSize } from './target-spec.js';
import type { TargetSpec } from './target-spec.js';
import { measureCurve, measureWireCost } from './wire-cost.js';
import { Redactor } from './secrets.js';

export type TargetRunKind = 'target-bench' | 'target-conformance';

export interface TargetRunOptions {
  readonly kind: TargetRunKind;
  readonly specs: readonly TargetSpec[];
  readonly config: TargetConfig;
  readonly command: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly onProgress?: (line: string) => void;
}

function commitOf(): string | null {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

function named(error: unknown, redactor: Redactor): { code: string; message: string } {
  if (error instanceof TargetFailure) return { code: error.code, message: redactor.scrub(error.message) };
  return { code: 'protocol_error', message: redactor.scrub(error instanceof Error ? `${error.name}: ${error.message}` : String(error)) };
}

async function runOne(kind: TargetRunKind, spec: TargetSpec, options: TargetRunOptions, redactor: Redactor): Promise<TargetOutcome> {
  const started = performance.now();
  const progress = (line: string): void => options.onProgress?.(`${spec.text}: ${line}`);
  const identities = await resolveIdentities(options.config, redactor, options.env);
  const elapsed = (): number => Math.round(performance.now() - started);
  // A `{n}` target's single-size runs use the smallest configured size (or 1).
  const single = hasSizePlaceholder(spec) ? atSize(spec, options.config.sizes.length === 0 ? 1 : Math.min(...options.config.sizes)) : spec;
  if (kind === 'target-conformance') {
    progress('consistency probe');
    const observations = await probeConsistency(single, identities, options.config, redactor);
    const rows = judgeConsistency(observations, redactor);
    const identityFailures = observations.filter((o) => o.failure !== undefined).map((o) => ({ identity: o.identity.name, ...o.failure! }));
    const allFailed = identityFailures.length === observations.length && observations.every((o) => o.listings.length === 0);
    return {
      target: spec.text,
      status: allFailed ? 'failed' : 'measured',
      ...(allFailed ? { failure: { code: identityFailures[0]!.code, message: identityFailures[0]!.message } } : {}),
      elapsedMs: elapsed(),
      rows: rows.map((row) => ({ ...row, evidence: row.evidence.map((frame) => (frame.method === undefined ? (({ method: _m, ...rest }) => rest)(frame) : frame)) })),
      ...(identityFailures.length === 0 ? {} : { identityFailures }),
    };
  }
  try {
    progress('wire cost');
    const cost = await measureWireCost(single, identities, options.config, redactor, { onProgress: progress });
    const curve = hasSizePlaceholder(spec) && options.config.sizes.length > 0 ? await measureCurve(spec, identities[0]!, options.config, redactor, { onProgress: progress }) : undefined;
    return { target: spec.text, status: 'measured', elapsedMs: elapsed(), cost, ...(curve === undefined ? {} : { curve }) };
  } catch (error) {
    return { target: spec.text, status: 'failed', failure: named(error, redactor), elapsedMs: elapsed() };
  }
}

export async function runTargets(options: TargetRunOptions): Promise<TargetReport> {
  const redactor = new Redactor();
  // Credentials are checked before any target runs: a missing variable is a usage error, not a target failure.
  await resolveIdentities(options.config, redactor, options.env);
  const targets: TargetOutcome[] = [];
  for (const spec of options.specs) {
    try {
      targets.push(await runOne(options.kind, spec, options, redactor));
    } catch (error) {
      targets.push({ target: spec.text, status: 'failed', failure: named(error, redactor), elapsedMs: 0 });
    }
    const last = targets.at(-1)!;
    options.onProgress?.(`${spec.text}: ${last.status}${last.failure === undefined ? '' : ` (${last.failure.code})`} in ${(last.elapsedMs / 1000).toFixed(1)} s`);
  }
  const cpu = cpus();
  const report: TargetReport = {
    schemaVersion: 1,
    kind: options.kind,
    createdAt: new Date().toISOString(),
    command: options.command,
    commit: commitOf(),
    machine: { cpu: cpu[0]?.model.trim() ?? 'unknown', cores: cpu.length, node: process.version, platform: `${process.platform}-${process.arch}` },
    settings: {
      samples: options.config.samples,
      warmup: options.config.warmup,
      coldRuns: options.config.coldRuns,
      timeoutMs: options.config.timeoutMs,
      listRepeats: options.config.listRepeats,
      identities: options.config.identities.map((i) => i.name),
    },
    targets,
  };
  return TargetReportSchema.parse(redactor.scrubValue(report));
}

/** Exit code of a run: 0 all measured (and, for conformance, no row failed), 1 otherwise. */
export function targetRunExitCode(report: TargetReport): 0 | 1 {
  const bad = report.targets.some((t) => t.status === 'failed' || (t.rows ?? []).some((row) => row.verdict === 'fail' || row.verdict === 'error'));
  return bad ? 1 : 0;
}
