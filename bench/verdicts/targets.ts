/**
 * The figures this harness is expected to show, checked on every run and
 * printed in the report. They are expectations about the kernel's shape
 * (ADR 0026's staircase, its structural claims), the targets measured paired
 * in one run (paired-targets.ts, ADR 0063) and absolute ceilings for the
 * `turn` path on a current machine; a missed one is reported, never padded.
 * They are checked here, on a real run, and never in a timed unit test.
 */
import type { StrategyName } from '../results/results-schema.js';
import { describeJudgement, failsRun, judgePairedTargets } from './paired-targets.js';
import type { PairedJudgement } from './paired-targets.js';
import type { MeasuredResults } from '../results/write-results.js';
import { formatCount, formatRatio, formatSignedMicros as us } from '../format/index.js';

export interface TargetCheck {
  readonly target: string;
  readonly measured: string;
  readonly met: boolean;
  /**
   * What the target compares. A `paired` target is measured against its
   * reference in the same run, round by round, and judged on the interval of
   * its median over the rounds (ADR 0063, superseding ADR 0031's rule that µs
   * targets are reported only): once a committed run has read it met, a run
   * whose interval lies wholly beyond it fails `costlab bench`; until then it
   * is open, printed with its gap. `structural` targets are exact counts: a
   * miss fails the run. `absolute` ceilings in µs have nothing measured beside
   * them: they belong to a machine, and a loaded 2-core CI runner misses them
   * on noise, so they are reported and never fail the run.
   */
  readonly kind: 'paired' | 'structural' | 'absolute';
  /** A paired target's judgement (verdict, failing or open, interval, gap). */
  readonly paired?: PairedJudgement;
}

/**
 * Targets whose miss fails the run (exit 1): a missed structural one, and a failing paired one whose interval lies
 * wholly beyond it.
 */
export function failingTargets(checks: readonly TargetCheck[]): TargetCheck[] {
  return checks.filter(
    (check) => (check.kind === 'structural' && !check.met) || (check.paired !== undefined && failsRun(check.paired)),
  );
}

/**
 * The paired targets, judged on this run's round-by-round intervals. `met` is the median's side of the bound (the
 * summary's count); the verdict on the interval is what fails a run. On the transport rows, what the spec's rules
 * cost alone is printed beside (ADR 0039): the two records on stdio, the HTTP checks over HTTP; beside costlab − floor,
 * what two floors of the transport read apart (the row's A/A, ADR 0084); beside kernel ÷ floor, what the floor with
 * costlab's promises reads alone (ADR 0085).
 */
function pairedChecks(results: MeasuredResults): TargetCheck[] {
  const writes = results.mcpTransports?.recordWrites;
  const httpChecks = results.mcpTransports?.httpLayer?.added;
  return judgePairedTargets(results).map(({ definition, judgement }) => {
    const { atMost, atLeast } = definition.bound;
    const transport = definition.id.startsWith('mcp-added:') ? definition.id.slice('mcp-added:'.length) : undefined;
    const overFloor = definition.id.startsWith('mcp-over-floor:')
      ? results.mcpTransports?.transports.find((row) => row.transport === definition.id.slice('mcp-over-floor:'.length))
      : undefined;
    const aa =
      overFloor?.aa === undefined
        ? ''
        : `; its A/A, floor − floor, ${us(overFloor.aa.medianUs)} (${us(overFloor.aa.loUs)} to ` +
          `${us(overFloor.aa.hiUs)})`;
    const records =
      writes === undefined
        ? undefined
        : transport === 'stdio'
          ? writes.pipe
          : transport === 'stdio-audit-file'
            ? writes.file
            : undefined;
    const recordsAlone = records === undefined ? '' : `; its two records alone ${us(records.p50Us)}`;
    const checksAlone =
      transport === 'http' && httpChecks !== undefined ? `; its HTTP checks alone ${us(httpChecks.medianUs)}` : '';
    const promised = definition.id.startsWith('floor:hot')
      ? results.floor?.promised?.overFloorByTurn
      : definition.id.startsWith('floor:cold')
        ? results.floor?.cold?.promised?.overFloorByTurn
        : undefined;
    const promisedAlone =
      promised === undefined
        ? ''
        : `; the floor with costlab's promises alone ${formatRatio(promised.median)} the floor ` +
          `(${formatRatio(promised.lo)} to ${formatRatio(promised.hi)})`;
    const beside = `${recordsAlone}${checksAlone}${aa}${promisedAlone}`;
    return {
      target: definition.statement,
      measured: `${describeJudgement(definition, judgement)}${beside}`,
      met:
        (atMost === undefined || judgement.median <= atMost) && (atLeast === undefined || judgement.median >= atLeast),
      kind: 'paired' as const,
      paired: judgement,
    };
  });
}

export function checkTargets(results: MeasuredResults): TargetCheck[] {
  const s = results.strategies;
  const call = (name: StrategyName): number => s[name].call.p50Us;
  const checks: TargetCheck[] = [
    ...pairedChecks(results),
    {
      target: 'turn: in-process mediated call p50 ≤ 40 µs',
      measured: us(call('turn')),
      met: call('turn') <= 40,
      kind: 'absolute',
    },
    {
      target: 'turn: catalogue segment p50 ≤ 2 µs',
      measured: us(s.turn.segments.catalogue.p50Us),
      met: s.turn.segments.catalogue.p50Us <= 2,
      kind: 'absolute',
    },
    {
      target: 'turn: authorization p50 ≤ 5 µs',
      measured: us(s.turn.segments.authorize.p50Us),
      met: s.turn.segments.authorize.p50Us <= 5,
      kind: 'absolute',
    },
  ];
  const turn = s.turn.structural;
  const [fewest, most] = results.harness.derivationsRange.turn;
  checks.push({
    target: 'turn: 1 authority load, 1 derivation, 1 provider call per turn (every measured turn)',
    measured:
      `${turn.authorityLoadsPerTurn} / ${turn.derivationsPerTurn} (each ` +
      `turn ${fewest === most ? fewest : `${fewest}–${most}`}) / ${turn.providerCallsPerTurn}`,
    met: turn.authorityLoadsPerTurn === 1 && fewest === 1 && most === 1 && turn.providerCallsPerTurn === 1,
    kind: 'structural',
  });
  for (const name of ['shared', 'rederive'] as const) {
    const operations = results.harness.resolvingOperationsPerTurn[name];
    const { derivationsPerTurn, providerCallsPerTurn } = s[name].structural;
    checks.push({
      target: `${name}: derivations = provider calls = operations that resolved a catalogue, per turn`,
      measured:
        `${derivationsPerTurn} = ${providerCallsPerTurn} = ${operations} (listing ` +
        `+ ${formatCount(operations - 1)} calls)`,
      met: derivationsPerTurn === operations && providerCallsPerTurn === operations,
      kind: 'structural',
    });
  }
  return checks;
}
