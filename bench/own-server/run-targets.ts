/**
 * Runs the cost measurement or the consistency rows over one or more
 * targets. Each target is isolated: one that never answers, exits, writes
 * garbage or floods its listing becomes a failed outcome with a named code,
 * and the next target is measured as if nothing happened.
 */
import { cpus } from 'node:os';
import { DEFAULT_CALL_PLAN } from './call-plan.js';
import type { CallPlanOptions } from './call-plan.js';
import { failedTargetRows, judgeConsistency } from './consistency-rows.js';
import type { ConsistencyRow } from './consistency-rows.js';
import { probeConsistency } from './consistency-probe.js';
import { listingFootprint } from './listing-footprint.js';
import { resolveIdentities } from './target-config.js';
import type { TargetConfig } from './target-config.js';
import { TargetFailure } from './target-failure.js';
import { TargetReportSchema } from './target-report-schema.js';
import type { TargetOutcome, TargetReport } from './target-report-schema.js';
import { hasSizePlaceholder, atSize } from './target-spec.js';
import type { TargetSpec } from './target-spec.js';
import { measureCurve, measureWireCost } from './wire-cost.js';
import { Redactor } from './secrets.js';
import { costlabCommit, targetCommit } from './target-provenance.js';
import { summaryLines } from './target-summary.js';
import { formatSeconds } from '../format/index.js';

type TargetRunKind = 'target-bench' | 'target-conformance';

export interface TargetRunOptions {
  readonly kind: TargetRunKind;
  readonly specs: readonly TargetSpec[];
  readonly config: TargetConfig;
  readonly command: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Which tools are called and how (`--calls`, `--allow-destructive`, `--seed`); default: the config's calls only. */
  readonly plan?: CallPlanOptions;
  readonly onProgress?: (line: string) => void;
}

function named(error: unknown, redactor: Redactor): { code: string; message: string } {
  if (error instanceof TargetFailure) return { code: error.code, message: redactor.scrub(error.message) };
  return {
    code: 'protocol_error',
    message: redactor.scrub(error instanceof Error ? `${error.name}: ${error.message}` : String(error)),
  };
}

/** Rows as the report holds them: an evidence frame without a method has no `method` key. */
function reportRows(rows: readonly ConsistencyRow[]): NonNullable<TargetOutcome['rows']> {
  return rows.map((row) => ({
    ...row,
    evidence: row.evidence.map((frame) =>
      frame.method === undefined ? (({ method: _m, ...rest }) => rest)(frame) : frame,
    ),
  }));
}

async function runOne(
  kind: TargetRunKind,
  spec: TargetSpec,
  options: TargetRunOptions,
  redactor: Redactor,
): Promise<TargetOutcome> {
  const started = performance.now();
  const progress = (line: string): void => options.onProgress?.(`${spec.text}: ${line}`);
  const identities = await resolveIdentities(options.config, redactor, options.env);
  const elapsed = (): number => Math.round(performance.now() - started);
  const plan = options.plan ?? DEFAULT_CALL_PLAN;
  const base = { target: spec.text, targetCommit: targetCommit(spec) };
  // A `{n}` target's single-size runs use the smallest configured size (or 1).
  const single = hasSizePlaceholder(spec)
    ? atSize(spec, options.config.sizes.length === 0 ? 1 : Math.min(...options.config.sizes))
    : spec;
  if (kind === 'target-conformance') {
    progress('consistency probe');
    const { observations, calls } = await probeConsistency(single, identities, options.config, redactor, plan);
    const identityFailures = observations
      .filter((o) => o.failure !== undefined)
      .map((o) => ({ identity: o.identity.name, ...o.failure! }));
    const firstListing = observations.find((o) => o.listings.length > 0)?.listings[0];
    // Dead, hung before its first listing, or not speaking MCP: nothing the target promises was seen, so every row
    // fails with the cause.
    if (firstListing === undefined) {
      const cause = identityFailures[0] ?? { code: 'protocol_error', message: 'no identity received a listing' };
      return {
        ...base,
        status: 'failed',
        failure: { code: cause.code, message: cause.message },
        elapsedMs: elapsed(),
        rows: reportRows(failedTargetRows(cause)),
        ...(identityFailures.length === 0 ? {} : { identityFailures }),
      };
    }
    const callRows = calls?.rows();
    const rows = judgeConsistency(observations, redactor, callRows);
    return {
      ...base,
      status: 'measured',
      elapsedMs: elapsed(),
      rows: reportRows(rows),
      ...(callRows === undefined ? {} : { calls: callRows }),
      listing: listingFootprint(firstListing.tools, redactor, options.config.tokenBudget),
      ...(identityFailures.length === 0 ? {} : { identityFailures }),
    };
  }
  try {
    progress('wire cost');
    const cost = await measureWireCost(single, identities, options.config, redactor, plan, { onProgress: progress });
    const curve =
      hasSizePlaceholder(spec) && options.config.sizes.length > 0
        ? await measureCurve(spec, identities[0]!, options.config, redactor, { onProgress: progress })
        : undefined;
    return { ...base, status: 'measured', elapsedMs: elapsed(), cost, ...(curve === undefined ? {} : { curve }) };
  } catch (error) {
    return { ...base, status: 'failed', failure: named(error, redactor), elapsedMs: elapsed() };
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
      const failure = named(error, redactor);
      targets.push({
        target: spec.text,
        targetCommit: targetCommit(spec),
        status: 'failed',
        failure,
        elapsedMs: 0,
        ...(options.kind === 'target-conformance' ? { rows: reportRows(failedTargetRows(failure)) } : {}),
      });
    }
    const last = targets.at(-1)!;
    options.onProgress?.(
      `${spec.text}: ${last.status}${last.failure === undefined ? '' : ` (${last.failure.code})`} ` +
        `in ${formatSeconds(last.elapsedMs)}`,
    );
  }
  const cpu = cpus();
  const report: TargetReport = {
    schemaVersion: 1,
    kind: options.kind,
    createdAt: new Date().toISOString(),
    command: options.command,
    commit: costlabCommit(),
    summary: summaryLines(options.kind, targets),
    machine: {
      cpu: cpu[0]?.model.trim() ?? 'unknown',
      cores: cpu.length,
      node: process.version,
      platform: `${process.platform}-${process.arch}`,
    },
    settings: {
      samples: options.config.samples,
      warmup: options.config.warmup,
      coldRuns: options.config.coldRuns,
      timeoutMs: options.config.timeoutMs,
      listRepeats: options.config.listRepeats,
      identities: options.config.identities.map((i) => i.name),
      calls: (options.plan ?? DEFAULT_CALL_PLAN).calls,
      allowDestructive: (options.plan ?? DEFAULT_CALL_PLAN).allowDestructive,
      seed: (options.plan ?? DEFAULT_CALL_PLAN).seed,
    },
    targets,
  };
  // Every string from a target was redacted where it entered (messages, frames, names, answers): costlab's own words
  // are left whole.
  return TargetReportSchema.parse(report);
}

/**
 * Exit code of a run: 0 all measured (and, for conformance, no row failed, errored or went unexercised), 1 otherwise.
 */
export function targetRunExitCode(report: TargetReport): 0 | 1 {
  const bad = report.targets.some(
    (t) =>
      t.status === 'failed' ||
      (t.rows ?? []).some(
        (row) => row.verdict === 'fail' || row.verdict === 'error' || row.verdict === 'not_exercised',
      ),
  );
  return bad ? 1 : 0;
}
