/**
 * The figures this harness is expected to show, checked on every run and
 * printed in the report. They are expectations about the kernel's shape
 * (ADR 0026's staircase, its structural claims) and absolute ceilings for the
 * `turn` path on a current machine; a missed one is reported, never padded.
 * They are checked here, on a real run, and never in a timed unit test.
 */
import { STRATEGY_NAMES } from '../results/results-schema.js';
import type { StrategyName } from '../results/results-schema.js';
import type { MeasuredResults } from '../results/write-results.js';

export interface TargetCheck {
  readonly target: string;
  readonly measured: string;
  readonly met: boolean;
  /**
   * What the target compares. `ratio` and `structural` targets are judged
   * within one run (strategies interleaved, exact counts), so machine noise
   * cannot miss them and a miss fails `costlab bench`. `absolute` ceilings in
   * µs belong to a machine: a loaded 2-core CI runner misses them on noise, so
   * they are reported and never fail the run. A `goal` is a ratio an open
   * tuning issue aims at and the kernel does not meet with margin yet (the
   * call at 3× its floor: 5.2× when it was set, 2.2–2.8× now); it is printed
   * as met or missed and does not fail the run, and becomes a `ratio` target
   * once it holds with room.
   */
  readonly kind: 'ratio' | 'structural' | 'absolute' | 'goal';
}

/** Targets whose miss fails the run (exit 1): every ratio and structural one (not `absolute` ceilings, not open `goal`s). */
export function failingTargets(checks: readonly TargetCheck[]): TargetCheck[] {
  return checks.filter((check) => !check.met && (check.kind === 'ratio' || check.kind === 'structural'));
}

const us = (value: number): string => `${value < 0 ? '−' : ''}${Number(Math.abs(value).toPrecision(3))} µs`;
const pct = (share: number): string => (share > 0 && share < 0.01 ? '<1%' : `${Number((share * 100).toFixed(1))}%`);

function stepP50(results: MeasuredResults, step: string): number {
  return results.steps?.steps.find((row) => row.step === step)?.p50Us ?? 0;
}

/**
 * Catalogue resolution's share of a call under turn, judged with the clock in view (ADR 0033). Under turn the segment
 * is one field read (~1 ns, mitata) between two clock reads, so what it measures is the clock: 0.051 µs p50 in a
 * committed run whose clock read cost 0.089 µs. With the call at ~5–7 µs p50 the clock's own cost is ~1% of it, and
 * the share failed runs on the instrument alone: 1.06% and 1.03% in two runs, 1.01% in a third (segment p50 0.071 µs).
 * So the share is met below 1%, or, when the segment's p50 is within two clock reads (what an empty span reads), at
 * the clock's floor, said as such. A catalogue resolved again per call reads microseconds (shared: ~20 µs), far
 * above that floor, and is judged on its share as before.
 */
function turnShareCheck(results: MeasuredResults): TargetCheck {
  const { share, p50Us } = results.strategies.turn.segments.catalogue;
  const clockFloorUs = 2 * results.timerOverheadUs;
  const atFloor = p50Us <= clockFloorUs;
  return {
    target: 'catalogue share under turn < 1% (or the segment at the clock’s floor: p50 within two clock reads)',
    measured:
      share < 0.01 || !atFloor
        ? pct(share)
        : `${pct(share)}, with the segment at the clock’s floor: p50 ${us(p50Us)} ≤ two clock reads (${us(clockFloorUs)}), an empty span's reading`,
    met: share < 0.01 || atFloor,
    kind: 'ratio',
  };
}

/**
 * The unnamed part of the call, judged on the median call (ADR 0034). The steps tile the span, so the only part no step
 * names is `return`: the last mark to the span's end, the caller resuming (0.2 µs p50 in committed runs). Its run total
 * also holds whatever pause the machine takes there: a fresh-clone README run read its share of the run at 13.2% with
 * p50 0.2 µs and mean 1.74 µs, where committed runs read ~2%. So the judgement is the tail's p50 over the span's p50, as
 * the instrumentation's share already is; the run-total share is printed beside it. A cost the kernel adds after its
 * last mark on every call moves the p50 with it; work added to a few calls is the gate's instruction lanes' to catch.
 */
function unnamedTailCheck(steps: NonNullable<MeasuredResults['steps']>): TargetCheck {
  const tail = steps.steps.find((row) => row.step === 'return');
  const callP50Us = steps.call.p50Us;
  const medianShare = tail === undefined || callP50Us <= 0 ? 0 : tail.p50Us / callP50Us;
  return {
    target: 'turn: no unnamed part of the call over 10% (the steps tile the span; the tail after the last mark, of the median call)',
    measured:
      tail === undefined
        ? '—'
        : `${pct(medianShare)} (${us(tail.p50Us)} of ${us(callP50Us)} at the median; of the run's total time ${pct(tail.share)})`,
    met: tail !== undefined && medianShare <= 0.1,
    kind: 'ratio',
  };
}

export function checkTargets(results: MeasuredResults): TargetCheck[] {
  const s = results.strategies;
  const call = (name: StrategyName): number => s[name].call.p50Us;
  const share = (name: StrategyName): number => s[name].segments.catalogue.share;
  const checks: TargetCheck[] = [
    {
      target: 'staircase: each step faster (call p50 rederive > shared > turn)',
      measured: STRATEGY_NAMES.map((name) => `${name} ${us(call(name))}`).join(' > '),
      met: call('rederive') > call('shared') && call('shared') > call('turn'),
      kind: 'ratio',
    },
    { target: 'catalogue share under rederive ≥ 60%', measured: pct(share('rederive')), met: share('rederive') >= 0.6, kind: 'ratio' },
    { target: 'catalogue share under shared within 20–80%', measured: pct(share('shared')), met: share('shared') >= 0.2 && share('shared') <= 0.8, kind: 'ratio' },
    turnShareCheck(results),
    {
      target: 'catalogue segment p50 under turn ≥ 50× cheaper than under shared',
      measured: `${results.staircase.catalogueSharedOverTurn}× (${us(s.shared.segments.catalogue.p50Us)} → ${us(s.turn.segments.catalogue.p50Us)})`,
      met: results.staircase.catalogueSharedOverTurn >= 50,
      kind: 'ratio',
    },
    { target: 'turn: in-process mediated call p50 ≤ 40 µs', measured: us(call('turn')), met: call('turn') <= 40, kind: 'absolute' },
    { target: 'turn: catalogue segment p50 ≤ 2 µs', measured: us(s.turn.segments.catalogue.p50Us), met: s.turn.segments.catalogue.p50Us <= 2, kind: 'absolute' },
    { target: 'turn: authorization p50 ≤ 5 µs', measured: us(s.turn.segments.authorize.p50Us), met: s.turn.segments.authorize.p50Us <= 5, kind: 'absolute' },
  ];
  // Issue 13: the call at its floor. Ratios within one run, so they hold on a loaded machine too.
  if (results.floor !== undefined) {
    checks.push({
      target: 'turn: in-process call p50 ≤ 3× the floor measured beside it',
      measured: `${results.floor.ratioP50}× (${us(results.floor.kernel.p50Us)} ÷ ${us(results.floor.floor.p50Us)})`,
      met: results.floor.ratioP50 <= 3,
      // Met in every run since 875a2ef (2.24–2.82× in full, quick and scratch runs), but by as little as 6%: a goal
      // until the margin is wider, so a loaded CI runner's run is not failed on it.
      kind: 'goal',
    });
    // ADR 0030: the same ratio with the caches evicted before each call, as a server's call runs.
    const cold = results.floor.cold;
    if (cold !== undefined) {
      checks.push({
        target: 'turn: call with cold caches p50 ≤ 3× the floor with cold caches',
        measured: `${cold.ratioP50}× (${us(cold.kernel.p50Us)} ÷ ${us(cold.floor.p50Us)}, ${cold.evictedMiB} MiB evicted before each call)`,
        met: cold.ratioP50 <= 3,
        kind: 'ratio',
      });
    }
  }
  if (results.steps !== undefined) {
    checks.push(unnamedTailCheck(results.steps));
    checks.push({
      target: 'turn: authorization (grant walk + decision record) p50 ≤ 1 µs',
      measured: us(stepP50(results, 'authorize') + stepP50(results, 'decision.record')),
      met: stepP50(results, 'authorize') + stepP50(results, 'decision.record') <= 1,
      kind: 'absolute',
    });
  }
  // Issue 13: what costlab adds to a tools/call over each MCP transport, beside a bare SDK server in the same run (µs: a machine's figure).
  // Met only when both readings are within 5 µs (ADR 0036): the issue's difference of whole-run p50s and, where the run
  // paired its rounds, the round-by-round median. Whole-run p50s alone read stdio at −13.1 µs in a run whose paired
  // median was +10.8 µs (interval −20.5 to +36.9): met on the machine's swing, not on the work.
  const writes = results.mcpTransports?.recordWrites;
  for (const row of results.mcpTransports?.transports ?? []) {
    // On the stdio rows the two records alone, written as those rows write them, are printed beside it (ADR 0039).
    const records = writes === undefined ? undefined : row.transport === 'stdio' ? writes.pipe : row.transport === 'stdio-audit-file' ? writes.file : undefined;
    // On the http row, costlab's HTTP checks alone (the floor behind them less the floor served bare).
    const checksAlone = row.transport === 'http' ? results.mcpTransports?.httpLayer?.added : undefined;
    checks.push({
      target: `MCP over ${row.transport}: added cost over a bare SDK server ≤ 5 µs p50 per tools/call (whole run and round by round)`,
      measured: `${us(row.addedP50Us)} (${us(row.costlab.p50Us)} − ${us(row.bare.p50Us)}, ${row.ratioP50}×)${
        row.paired === undefined ? '' : `; round by round ${us(row.paired.added.medianUs)}, ${Math.round(row.paired.confidence * 100)}% interval ${us(row.paired.added.loUs)} to ${us(row.paired.added.hiUs)}`
      }${records === undefined ? '' : `; its two records alone ${us(records.p50Us)}`}${checksAlone === undefined ? '' : `; its HTTP checks alone ${us(checksAlone.medianUs)}`}`,
      met: row.addedP50Us <= 5 && (row.paired === undefined || row.paired.added.medianUs <= 5),
      kind: 'absolute',
    });
  }
  checks.push({
    target: 'turn: opening a lease (the turn-boundary authority load) p50 ≤ 15 µs',
    measured: `${us(results.harness.turnBoundary.turn.openP50Us)}${results.harness.turnBoundary.turn.openColdP50Us === undefined ? '' : ` (a block's first turn, cold: ${us(results.harness.turnBoundary.turn.openColdP50Us)})`}`,
    met: results.harness.turnBoundary.turn.openP50Us <= 15,
    kind: 'absolute',
  });
  const turn = s.turn.structural;
  const [fewest, most] = results.harness.derivationsRange.turn;
  checks.push({
    target: 'turn: 1 authority load, 1 derivation, 1 provider call per turn (every measured turn)',
    measured: `${turn.authorityLoadsPerTurn} / ${turn.derivationsPerTurn} (each turn ${fewest === most ? fewest : `${fewest}–${most}`}) / ${turn.providerCallsPerTurn}`,
    met: turn.authorityLoadsPerTurn === 1 && fewest === 1 && most === 1 && turn.providerCallsPerTurn === 1,
    kind: 'structural',
  });
  for (const name of ['shared', 'rederive'] as const) {
    const operations = results.harness.resolvingOperationsPerTurn[name];
    const { derivationsPerTurn, providerCallsPerTurn } = s[name].structural;
    checks.push({
      target: `${name}: derivations = provider calls = operations that resolved a catalogue, per turn`,
      measured: `${derivationsPerTurn} = ${providerCallsPerTurn} = ${operations} (listing + ${Number((operations - 1).toFixed(3))} calls)`,
      met: derivationsPerTurn === operations && providerCallsPerTurn === operations,
      kind: 'structural',
    });
  }
  return checks;
}
