/**
 * The sweep's section of the systems-cost report (`results/scale-sweep.md`):
 * the N curve per strategy with its fitted log–log slopes, the P, C and G
 * curves under `turn`, the SDK side by side, what was skipped and why, and
 * the issue's targets checked against this run. Generated from the numbers.
 */
import { escapeMarkdown, markdownCode } from '../../src/conformance/index.js';
import { markdownTable } from 'markdown-table';
import type { SweepPoint, SweepResults } from '../results/sweep-schema.js';
import {
  formatBytes,
  formatFixed,
  formatInteger,
  formatLoadAverage,
  formatMicrosOrMillis as us,
  formatRatio,
} from '../format/index.js';

/** A table whose first column names the row and whose figures are right-aligned. */
function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return markdownTable([header, ...rows], {
    align: header.map((_, i) => (i === 0 ? '' : 'r')),
    alignDelimiters: false,
  });
}

function pointRow(p: SweepPoint, lead: string): string[] {
  return [
    lead,
    us(p.openP50Us),
    us(p.listP50Us),
    us(p.boundaryP50Us),
    us(p.callP50Us),
    us(p.callP95Us),
    us(p.amortizedP50Us),
    String(p.turns),
  ];
}

const POINT_HEADER = [
  'lease open p50',
  'listing p50',
  'boundary p50',
  'call p50',
  'call p95',
  'amortized / call p50',
  'turns',
];

/**
 * Bytes a provider tool adds to a turn's allocation between two points of one curve: the slope of the allocation
 * against N. Equal slopes on the two stretches of a curve mean allocation linear in N.
 */
function bytesPerTool(from: SweepPoint, to: SweepPoint): number | undefined {
  if (from.garbage === undefined || to.garbage === undefined || to.tools === from.tools) return undefined;
  return (to.garbage.allocatedBytesPerTurn - from.garbage.allocatedBytesPerTurn) / (to.tools - from.tools);
}

/**
 * What a turn allocates and collects along each `turn` N curve (the kind named per row), counted in a pass after
 * each point's timed turns; then, per kind, the bytes each provider tool adds between successive points.
 */
function pushGarbage(out: string[], results: SweepResults): void {
  const curves = PROVIDER_KINDS.map(({ label, signalled }) => ({
    label,
    points: results.points
      .filter(
        (p) =>
          p.axis === 'tools' &&
          p.strategy === 'turn' &&
          (p.changeSignal !== false) === signalled &&
          p.garbage !== undefined,
      )
      .sort((a, b) => a.tools - b.tools),
  }));
  if (curves.every((curve) => curve.points.length === 0)) return;
  out.push('');
  out.push('### What a turn allocates, `turn` (P = 1, C = 27, G = 6)');
  out.push('');
  out.push(
    "After each point's timed turns, a pass of its own under V8's `GCProfiler` (bench/scale/garbage-pass.ts), so " +
      "no timed figure carries the profiler: bytes allocated on V8's heap per turn (the heap's growth between " +
      'collections), young-generation collections (scavenges) and full collections per turn, and the time V8 ' +
      'reports they took. A superlinear term from allocation or collection would show as bytes per added tool ' +
      'growing along the curve, or as full collections appearing at large N.',
  );
  out.push('');
  const rows = curves.flatMap(({ label, points }) =>
    points.map((p, i) => {
      const g = p.garbage!;
      const slope = i === 0 ? undefined : bytesPerTool(points[i - 1]!, p);
      return [
        `${label}, N = ${formatInteger(p.tools)}`,
        formatBytes(g.allocatedBytesPerTurn),
        slope === undefined ? '—' : `${formatInteger(slope)} B`,
        formatFixed(g.minorPerTurn, 3),
        formatFixed(g.majorPerTurn, 3),
        us(g.pauseUsPerTurn),
        String(g.turns),
      ];
    }),
  );
  out.push(
    table(
      [
        'provider kind, N',
        'allocated / turn',
        'per tool added since the last point',
        'scavenges / turn',
        'full collections / turn',
        'collection time / turn',
        'turns',
      ],
      rows,
    ),
  );
}

/** One N curve under its heading: a row per point, then its fitted log–log slopes when it has any. */
function pushToolsCurve(
  out: string[],
  heading: string,
  curve: readonly SweepPoint[],
  slopes: SweepResults['slopes'],
): void {
  out.push('');
  out.push(heading);
  out.push('');
  out.push(
    table(
      ['N', ...POINT_HEADER],
      curve.map((p) => pointRow(p, formatInteger(p.tools))),
    ),
  );
  if (slopes.length > 0) {
    out.push('');
    const fitted = slopes.map((s) => `${s.metric.replace('P50Us', '')} ${s.slope}`).join(', ');
    out.push(`Fitted log–log slopes (N ${slopes[0]!.fromTools}–${slopes[0]!.toTools}): ${fitted}.`);
  }
}

export interface SweepTarget {
  readonly target: string;
  readonly measured: string;
  readonly met: boolean | undefined;
  /**
   * As the bench's targets (bench/verdicts/targets.ts): a `ratio` (a ratio or
   * a fitted slope, both judged within one run) fails `costlab sweep` when
   * missed; an `absolute` ceiling in µs belongs to a machine and never does.
   * An `open` ratio is one set before any run met it (ADR 0047's targets for
   * providers without a change signal: the call at 10,000 tools and one tool
   * changed): judged and printed with its gap every run, never failing; it is
   * made a `ratio` in the commit whose sweep first meets it (the boundary at
   * 10,000 tools was, in ADR 0074) unless its readings straddle the bound.
   */
  readonly kind: 'ratio' | 'absolute' | 'open';
}

/** Sweep targets whose miss fails the run (exit 1): the measured ratios and slopes. */
export function failingSweepTargets(targets: readonly SweepTarget[]): SweepTarget[] {
  return targets.filter((target) => target.kind === 'ratio' && target.met === false);
}

/** The two kinds of provider the `turn` curves are measured for (ADR 0021, ADR 0046). */
const PROVIDER_KINDS = [
  { signalled: true, label: 'with a change signal' },
  { signalled: false, label: 'without a change signal' },
] as const;

/** The N curve's point under `turn`: with the providers' change signal, or (`unsignalled`) without it. */
function turnAt(results: SweepResults, tools: number, unsignalled = false): SweepPoint | undefined {
  return results.points.find(
    (p) =>
      p.axis === 'tools' && p.strategy === 'turn' && p.tools === tools && (p.changeSignal === false) === unsignalled,
  );
}

/** The `changed` axis point (one tool given new content every turn) of one kind. */
function changedAt(results: SweepResults, unsignalled: boolean): SweepPoint | undefined {
  return results.points.find(
    (p) => p.axis === 'changed' && p.strategy === 'turn' && (p.changeSignal === false) === unsignalled,
  );
}

const toolsLabel = (point: SweepPoint): string => (point.tools === 1 ? '19' : `${18 + point.tools}`);

/** `measured ≤ factor × base`, as a ratio target judged within the run. */
function ratioTarget(
  target: string,
  value: SweepPoint | undefined,
  base: SweepPoint | undefined,
  factor: number,
  metric: 'boundaryP50Us' | 'callP50Us',
  kind: 'ratio' | 'open' = 'ratio',
): SweepTarget {
  if (value === undefined || base === undefined) return { target, measured: 'not measured', met: undefined, kind };
  const ratio = value[metric] / base[metric];
  const met = value[metric] <= factor * base[metric];
  const gap = kind === 'open' && !met ? `; open, ${formatRatio(ratio / factor)} its bound` : '';
  return { target, measured: `${formatRatio(ratio)} (${us(base[metric])} → ${us(value[metric])})${gap}`, met, kind };
}

/** The call target of one kind: the `turn` call p50 at 10,000 tools within 1.2× of the 19-tool figure. */
function callTarget(
  results: SweepResults,
  unsignalled: boolean,
  label: string,
  kind: 'ratio' | 'open' = 'ratio',
): SweepTarget {
  const small = turnAt(results, 1, unsignalled) ?? turnAt(results, 20, unsignalled);
  return ratioTarget(
    `${label}: turn call p50 at 10,000 tools within 1.2× of ` +
      `the ${small === undefined ? '19' : toolsLabel(small)}-tool figure`,
    turnAt(results, 10000, unsignalled),
    small,
    1.2,
    'callP50Us',
    kind,
  );
}

export function checkSweepTargets(results: SweepResults): SweepTarget[] {
  const [signalled, unsignalled] = PROVIDER_KINDS;
  const turnN = (tools: number) => turnAt(results, tools);
  const small = turnN(1) ?? turnN(20);
  const big = turnN(2000);
  const slope = results.slopes.find(
    (s) => s.strategy === 'turn' && s.metric === 'listP50Us' && s.changeSignal !== false,
  );
  const targets: SweepTarget[] = [];
  const with_ = signalled.label;
  targets.push(
    big === undefined
      ? {
          target: `${with_}: turn boundary (open + listing) at 2,000 tools ≤ 2 ms`,
          measured: 'not measured',
          met: undefined,
          kind: 'absolute',
        }
      : {
          target: `${with_}: turn boundary (open + listing) at 2,000 tools ≤ 2 ms`,
          measured: us(big.boundaryP50Us),
          met: big.boundaryP50Us <= 2000,
          kind: 'absolute',
        },
  );
  targets.push(
    small === undefined
      ? {
          target: `${with_}: turn boundary at 19 tools ≤ 25 µs`,
          measured: 'not measured',
          met: undefined,
          kind: 'absolute',
        }
      : {
          target: `${with_}: turn boundary at ${toolsLabel(small)} tools ≤ 25 µs`,
          measured: us(small.boundaryP50Us),
          met: small.boundaryP50Us <= 25,
          kind: 'absolute',
        },
  );
  targets.push(
    slope === undefined
      ? {
          target: `${with_}: turn listing log–log slope ≤ 1.05 from 20 to 10,000 tools`,
          measured: 'not measured',
          met: undefined,
          kind: 'ratio',
        }
      : {
          target: `${with_}: turn listing log–log slope ≤ 1.05 from 20 to 10,000 tools`,
          measured: `${slope.slope} (N ${slope.fromTools}–${slope.toTools})`,
          met: slope.toTools >= 10000 ? slope.slope <= 1.05 : undefined,
          kind: 'ratio',
        },
  );
  targets.push(callTarget(results, false, with_));
  const without = unsignalled.label;
  const at20 = turnAt(results, 20, true);
  const at2000 = turnAt(results, 2000, true);
  // Open, not failing (ADR 0047, second amendment): two p50s from separate points, in CI from separate shard
  // processes, with no interval between them; four CI-sized runs at one tree read 2.51×, 3.85×, 5.04× and 5.23×
  // (`costlab sweep --quick` in two shards then `--merge`, as .ci/run runs it, at e0d2839).
  // The cost it watches fails CI through the gate's opening-2000-unsignalled instruction lane instead.
  targets.push(
    ratioTarget(
      `${without}, unchanged: turn boundary at 2,000 tools ≤ 5× the figure at 20`,
      at2000,
      at20,
      5,
      'boundaryP50Us',
      'open',
    ),
  );
  // A ratio since the first sweep that met it (ADR 0047's rule for its open targets; ADR 0074): 3.91× in
  // `costlab sweep` at 0217cb9 (128 µs → 499 µs), and 3.7–4.4× in six runs of the same two points by `runPoint`.
  // The full sweep alone measures 10,000 tools: CI's quick sweep reports it not measured.
  targets.push(
    ratioTarget(
      `${without}, unchanged: turn boundary at 10,000 tools ≤ 5× the figure at 2,000`,
      turnAt(results, 10000, true),
      at2000,
      5,
      'boundaryP50Us',
    ),
  );
  targets.push(
    at2000 === undefined
      ? {
          target: `${without}, unchanged: turn boundary at 2,000 tools ≤ 500 µs`,
          measured: 'not measured',
          met: undefined,
          kind: 'absolute',
        }
      : {
          target: `${without}, unchanged: turn boundary at 2,000 tools ≤ 500 µs`,
          measured: us(at2000.boundaryP50Us),
          met: at2000.boundaryP50Us <= 500,
          kind: 'absolute',
        },
  );
  targets.push(
    ratioTarget(
      `${without}: one tool of 2,000 given new content every turn, boundary ≤ 2× the unchanged one`,
      changedAt(results, true),
      at2000,
      2,
      'boundaryP50Us',
      'open',
    ),
  );
  // Still open although the sweeps at 0217cb9 and 8f8943e met it (1.10×, 1.09×): the same two points by `runPoint`
  // read 1.15×, 1.20× and 1.29× at 0217cb9 (loaded, 2 shared cores) and 0.63×, 1.11×, 1.11× at 8f8943e (quiet; the
  // 1-tool point's p50 moved 4.1–7.6 µs between processes) — readings that straddle the bound, which ADR 0063 never
  // fails on; what remains is a cache effect of walking 10,000 fresh handlers a turn, not more work per call (ADR
  // 0018's callgrind; ADR 0074).
  targets.push(callTarget(results, true, without, 'open'));
  const atLeast50 = results.sdk.filter((s) => s.tools >= 50);
  targets.push({
    target: "costlab's listing over MCP cheaper than the SDK McpServer's at every N ≥ 50",
    measured:
      atLeast50.length === 0 ? 'not measured' : atLeast50.map((s) => `N=${s.tools} ${s.sdkOverCostlab}×`).join(', '),
    met: atLeast50.length === 0 ? undefined : atLeast50.every((s) => s.sdkOverCostlab > 1),
    kind: 'ratio',
  });
  return targets;
}

/** The sweep's targets as a table, each with its measured figure and whether it was met. */
function targetsTable(results: SweepResults, firstHeader: string): string {
  return table(
    [firstHeader, 'kind', 'measured', 'met'],
    checkSweepTargets(results).map((t) => [
      t.target,
      t.kind,
      t.measured,
      t.met === undefined ? 'not measured' : t.met ? 'yes' : 'no',
    ]),
  );
}

/**
 * One tool of 2,000 changed every turn, both kinds, beside each kind's unchanged N = 2,000 point: reported with the
 * targets.
 */
function changedNote(results: SweepResults): string | undefined {
  const parts: string[] = [];
  for (const { signalled, label } of PROVIDER_KINDS) {
    const changed = changedAt(results, !signalled);
    const unchanged = turnAt(results, changed?.tools ?? 2000, !signalled);
    if (changed === undefined || unchanged === undefined) continue;
    parts.push(
      `${label}, ${us(changed.boundaryP50Us)} against ${us(unchanged.boundaryP50Us)} unchanged ` +
        `(${formatRatio(changed.boundaryP50Us / unchanged.boundaryP50Us)}, ${changed.definitionsCompiledPerTurn} ` +
        `definition compiled a turn)`,
    );
  }
  return parts.length === 0
    ? undefined
    : `One tool of 2,000 given new content every turn (the \`changed\` points): ${parts.join('; ')}. Such a turn ` +
        `compiles the one definition, derives the new shape from the last (no sort) and hashes on from the sha-256 ` +
        `state kept before the change (ADR 0074); SPEC §1.7's \`catalogHash\` is one sha-256 over the canonical ` +
        `text of every kept tool in name order, so everything after the changed tool is hashed again: at the ` +
        `middle of the name order, about half the catalogue's text.`;
}

/**
 * How the points were warmed, when the file says: each point settles before it
 * is measured (run-point.ts), so its figures are of the kernel's optimised
 * code whatever ran before it in the process.
 */
function settlingNote(points: readonly SweepPoint[]): string | undefined {
  const warm = points.map((p) => p.warmupTurns).filter((turns): turns is number => turns !== undefined);
  if (warm.length === 0) return undefined;
  const range = (lo: number, hi: number): string =>
    lo === hi ? formatInteger(lo) : `${formatInteger(lo)}–${formatInteger(hi)}`;
  return (
    `Every point ran unmeasured turns before its measured ones (${range(Math.min(...warm), Math.max(...warm))} ` +
    `here): a fixed warm-up, then on until a set number of turns or a time cap, whichever came first. ` +
    'V8 optimises code that runs once per turn (lease open, the derivation, the listing) only after some ' +
    'thousands of turns, so without settling the first point of a curve was measured on less optimised code than ' +
    'the points after it ' +
    '(at f984c79 the 19-tool `turn` boundary read 34.7 µs against 25.5 µs at 218 tools): each point is now ' +
    'measured in the same state, whatever ran before it.'
  );
}

export function renderSweepMarkdown(results: SweepResults): string {
  const out: string[] = [];
  out.push('## Catalogue resolution at scale');
  out.push('');
  out.push(
    `Command ${markdownCode(results.command, 1_000)} at commit ` +
      `\`${results.commit.slice(0, 12)}\`${results.dirty ? ' (working tree dirty)' : ''}, ${results.createdAt}; ` +
      `${results.environment.cpuModel}, ${results.environment.cores} cores, Node ${results.environment.node}; ` +
      `load average ${formatLoadAverage(results.loadAverage.start)} at ` +
      `start, ${formatLoadAverage(results.loadAverage.end)} at end. ` +
      'Absolute times on a loaded machine are inflated and noisy; read the ratios and slopes within the run.',
  );
  out.push('');
  out.push(
    'N counts provider tools (the 18 static reference tools come on top); P providers share them; C calls per ' +
      'turn are the first C attempts of the reference workload; G grants per principal. Per point: p50 over the ' +
      'measured turns; "amortized" is the whole turn (open to close) over C.',
  );
  out.push('');
  const settled = settlingNote(results.points);
  if (settled !== undefined) {
    out.push(settled);
    out.push('');
  }
  out.push(
    'Two kinds of provider, every table and target naming its kind: **with a change signal** (the generated ' +
      'providers declare a catalogue revision that does not move, ADR 0021; `rederive` and `shared` ignore it) and ' +
      '**without a change signal** (the same providers declaring none, as most hosts write them: asked every turn, ' +
      'their answer compared with the last by identity, ADR 0046). The `turn` N curve is measured for both, side ' +
      'by side.',
  );
  for (const strategy of ['rederive', 'shared', 'turn'] as const) {
    const curve = results.points
      .filter((p) => p.axis === 'tools' && p.strategy === strategy && p.changeSignal !== false)
      .sort((a, b) => a.tools - b.tools);
    if (curve.length === 0) continue;
    pushToolsCurve(
      out,
      `### N provider tools, \`${strategy}\`, providers with a change signal (P = 1, C = 27, G = 6)`,
      curve,
      results.slopes.filter((s) => s.strategy === strategy && s.changeSignal !== false),
    );
  }
  const unsignalled = results.points
    .filter((p) => p.axis === 'tools' && p.strategy === 'turn' && p.changeSignal === false)
    .sort((a, b) => a.tools - b.tools);
  if (unsignalled.length > 0) {
    pushToolsCurve(
      out,
      '### N provider tools, `turn`, providers without a change signal (P = 1, C = 27, G = 6)',
      unsignalled,
      results.slopes.filter((s) => s.strategy === 'turn' && s.changeSignal === false),
    );
  }
  const changed = results.points
    .filter((p) => p.axis === 'changed')
    .sort((a, b) => Number(a.changeSignal !== false) - Number(b.changeSignal !== false));
  if (changed.length > 0) {
    out.push('');
    out.push('### One tool changed every turn, `turn` (P = 1, C = 27, G = 6)');
    out.push('');
    out.push(
      'A new definition object with new content (its description names the turn) for one tool in the middle of ' +
        'the name order, every turn; with the signal, the revision moves every turn with it. Beside it, the same ' +
        "kind's unchanged point of the same N.",
    );
    out.push('');
    const rows = changed.flatMap((p) => {
      const unchanged = turnAt(results, p.tools, p.changeSignal === false);
      const kind = p.changeSignal === false ? 'without a change signal' : 'with a change signal';
      return [
        ...(unchanged === undefined ? [] : [pointRow(unchanged, `${kind}, N = ${formatInteger(p.tools)}, unchanged`)]),
        pointRow(p, `${kind}, N = ${formatInteger(p.tools)}, ${p.changedTools ?? 1} changed`),
      ];
    });
    out.push(table(['provider kind, point', ...POINT_HEADER], rows));
  }
  pushGarbage(out, results);
  for (const axis of ['providers', 'calls', 'grants'] as const) {
    const rows = results.points.filter((p) => p.axis === axis).sort((a, b) => a.tools - b.tools || a[axis] - b[axis]);
    if (rows.length === 0) continue;
    const base = results.points.filter(
      (p) =>
        p.axis === 'tools' &&
        p.strategy === 'turn' &&
        p.changeSignal !== false &&
        rows.some((r) => r.tools === p.tools),
    );
    const all = [...base.map((p) => ({ ...p, axis })), ...rows].sort((a, b) => a.tools - b.tools || a[axis] - b[axis]);
    out.push('');
    const heading =
      axis === 'providers' ? 'P providers' : axis === 'calls' ? 'C calls per turn' : 'G grants per principal';
    out.push(`### ${heading}, \`turn\`, providers with a change signal`);
    out.push('');
    out.push(
      table(
        ['N', axis === 'providers' ? 'P' : axis === 'calls' ? 'C' : 'G', ...POINT_HEADER],
        all.map((p) => [formatInteger(p.tools), ...pointRow(p, String(p[axis]))]),
      ),
    );
  }
  if (results.sdk.length > 0) {
    out.push('');
    out.push('### tools/list beside the official SDK (in-memory transport, same run)');
    out.push('');
    out.push(
      "SDK: `McpServer` with the N tools declared with zod schemas, tools/list round trip. costlab: the turn's " +
        'listing over MCP — bridge open (lease + kernel listing) plus the tools/list round trip; the round trip ' +
        'alone beside it.',
    );
    out.push('');
    out.push(
      table(
        ['N', 'SDK McpServer p50', 'costlab turn listing p50', 'costlab tools/list alone p50', 'SDK ÷ costlab'],
        results.sdk.map((s) => [
          formatInteger(s.tools),
          us(s.sdkListP50Us),
          us(s.costlabTurnListP50Us),
          us(s.costlabListP50Us),
          `${s.sdkOverCostlab}×`,
        ]),
      ),
    );
  }
  if (results.skipped.length > 0) {
    out.push('');
    out.push('### Skipped');
    out.push('');
    for (const s of results.skipped) {
      const unsignalled = s.changeSignal === false ? ' without a change signal' : '';
      const changed = (s.changedTools ?? 0) > 0 ? `, ${s.changedTools} changed a turn` : '';
      out.push(
        `- ${s.strategy} N=${s.tools} P=${s.providers} C=${s.calls} G=${s.grants}${unsignalled}${changed} ` +
          `(${s.axis} curve): ${escapeMarkdown(s.reason, 1_000)}`,
      );
    }
  }
  out.push('');
  out.push('### Targets (this run)');
  out.push('');
  out.push(targetsTable(results, 'target'));
  const note = changedNote(results);
  if (note !== undefined) out.push('', note);
  out.push('');
  out.push(
    'A missed `ratio` target (a ratio or a fitted slope, judged within this run) fails `costlab sweep`; an ' +
      '`absolute` ceiling in µs belongs to a machine and is reported only.',
  );
  out.push('');
  return out.join('\n');
}

/**
 * The sweep's section of `systems-cost.md`: the N curve of every strategy
 * (boundary, call and amortized p50), its fitted slopes, the SDK ratios and
 * the targets — generated from the sweep file the bench found beside it,
 * which names its own commit and load (it is usually older than the run
 * above it). The whole sweep is in `scale-sweep.md`.
 */
export function renderSweepSummary(results: SweepResults, source: string): string {
  const out: string[] = ['## Catalogue resolution at scale', ''];
  out.push(
    `From \`${source}\`: \`${results.command}\` at commit ` +
      `\`${results.commit.slice(0, 12)}\`${results.dirty ? ' (dirty)' : ''}, ${results.createdAt}, load ` +
      `average ${formatLoadAverage(results.loadAverage.start)} → ${formatLoadAverage(results.loadAverage.end)} ` +
      `on ${results.environment.cores} cores. ` +
      'N provider tools on top of the 18 static ones, one provider, 27 calls a turn, 6 grants; p50s. Every ' +
      'curve, the P, C and G axes and what was skipped are in `scale-sweep.md`.',
  );
  const sizes = [...new Set(results.points.filter((p) => p.axis === 'tools').map((p) => p.tools))].sort(
    (a, b) => a - b,
  );
  // One column per curve: each strategy with the providers' change signal, and `turn` without it.
  const columns = [
    ...(['rederive', 'shared', 'turn'] as const).map((strategy) => ({
      strategy,
      signalled: true,
      title: strategy === 'turn' ? 'turn, with a change signal' : strategy,
    })),
    { strategy: 'turn' as const, signalled: false, title: 'turn, without a change signal' },
  ];
  const at = (column: (typeof columns)[number], tools: number) =>
    results.points.find(
      (p) =>
        p.axis === 'tools' &&
        p.strategy === column.strategy &&
        p.tools === tools &&
        (p.changeSignal !== false) === column.signalled,
    );
  const shown = columns.filter((column) => sizes.some((n) => at(column, n) !== undefined));
  for (const [label, metric] of [
    ['turn boundary (lease open + listing)', 'boundaryP50Us'],
    ['mediated call', 'callP50Us'],
    ['per call, amortized over the turn (whole turn ÷ C)', 'amortizedP50Us'],
  ] as const) {
    out.push('', `**${label}**, p50:`, '');
    out.push(
      table(
        ['N', ...shown.map((column) => column.title)],
        sizes.map((n) => [
          formatInteger(n),
          ...shown.map((column) => {
            const p = at(column, n);
            return p === undefined ? '—' : us(p[metric]);
          }),
        ]),
      ),
    );
  }
  const fitted = shown.filter((column) =>
    results.slopes.some((s) => s.strategy === column.strategy && (s.changeSignal !== false) === column.signalled),
  );
  if (fitted.length > 0) {
    out.push('', 'Fitted log–log slopes over N:', '');
    out.push(
      table(
        ['curve', 'N range', 'listing', 'boundary', 'call', 'amortized'],
        fitted.map((column) => {
          const of = (metric: string) =>
            results.slopes.find(
              (s) =>
                s.strategy === column.strategy &&
                s.metric === metric &&
                (s.changeSignal !== false) === column.signalled,
            );
          const any = of('listP50Us');
          return [
            column.title,
            any === undefined ? '—' : `${any.fromTools}–${any.toTools}`,
            ...['listP50Us', 'boundaryP50Us', 'callP50Us', 'amortizedP50Us'].map((metric) =>
              String(of(metric)?.slope ?? '—'),
            ),
          ];
        }),
      ),
    );
  }
  if (results.sdk.length > 0) {
    out.push(
      '',
      `tools/list over the in-memory transport, SDK \`McpServer\` ÷ costlab (above 1: costlab ` +
        `cheaper): ${results.sdk.map((s) => `N=${formatInteger(s.tools)} ${s.sdkOverCostlab}×`).join(', ')}.`,
    );
  }
  out.push('', targetsTable(results, 'sweep target'));
  const note = changedNote(results);
  if (note !== undefined) out.push('', note);
  return out.join('\n');
}
