/**
 * The sweep's section of the systems-cost report (`results/scale-sweep.md`):
 * the N curve per strategy with its fitted log–log slopes, the P, C and G
 * curves under `turn`, the SDK side by side, what was skipped and why, and
 * the issue's targets checked against this run. Generated from the numbers.
 */
import { escapeMarkdown, markdownCode } from '../../src/conformance/report/markdown-text.js';
import type { SweepPoint, SweepResults } from '../results/sweep-schema.js';

const us = (value: number): string => (value >= 1000 ? `${(value / 1000).toPrecision(3)} ms` : `${value.toPrecision(3)} µs`);

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return [`| ${header.join(' | ')} |`, `| ${header.map((_, i) => (i === 0 ? '---' : '---:')).join(' | ')} |`, ...rows.map((row) => `| ${row.join(' | ')} |`)].join('\n');
}

function pointRow(p: SweepPoint, lead: string): string[] {
  return [lead, us(p.openP50Us), us(p.listP50Us), us(p.boundaryP50Us), us(p.callP50Us), us(p.callP95Us), us(p.amortizedP50Us), String(p.turns)];
}

const POINT_HEADER = ['lease open p50', 'listing p50', 'boundary p50', 'call p50', 'call p95', 'amortized / call p50', 'turns'];

export interface SweepTarget {
  readonly target: string;
  readonly measured: string;
  readonly met: boolean | undefined;
  /**
   * As the bench's targets (bench/harness/targets.ts): a `ratio` (a ratio or
   * a fitted slope, both judged within one run) fails `costlab sweep` when
   * missed; an `absolute` ceiling in µs belongs to a machine and never does.
   */
  readonly kind: 'ratio' | 'absolute';
}

/** Sweep targets whose miss fails the run (exit 1): the measured ratios and slopes. */
export function failingSweepTargets(targets: readonly SweepTarget[]): SweepTarget[] {
  return targets.filter((target) => target.kind === 'ratio' && target.met === false);
}

/** The N curve's point under `turn`: with the providers' change signal, or (`unsignalled`) the comparison curve without it. */
function turnAt(results: SweepResults, tools: number, unsignalled = false): SweepPoint | undefined {
  return results.points.find((p) => p.axis === 'tools' && p.strategy === 'turn' && p.tools === tools && (p.changeSignal === false) === unsignalled);
}

/** The turn-call and boundary figures of the curve without a change signal, when the run has it: reported beside the targets, not judged. */
function unsignalledNote(results: SweepResults): string | undefined {
  const small = turnAt(results, 1, true) ?? turnAt(results, 20, true);
  if (small === undefined) return undefined;
  const parts: string[] = [];
  const big = turnAt(results, 2000, true);
  if (big !== undefined) parts.push(`boundary at 2,000 tools ${us(big.boundaryP50Us)}`);
  const largest = turnAt(results, 10000, true);
  if (largest !== undefined) parts.push(`call p50 at 10,000 tools ${(largest.callP50Us / small.callP50Us).toFixed(2)}× the ${small.tools === 1 ? '19' : `${18 + small.tools}`}-tool figure (${us(small.callP50Us)} → ${us(largest.callP50Us)})`);
  return parts.length === 0 ? undefined : `Providers without a change signal (ADR 0018's comparison path, same run): ${parts.join('; ')}.`;
}

export function checkSweepTargets(results: SweepResults): SweepTarget[] {
  const turnN = (tools: number) => turnAt(results, tools);
  const small = turnN(1) ?? turnN(20);
  const big = turnN(2000);
  const largest = turnN(10000);
  const slope = results.slopes.find((s) => s.strategy === 'turn' && s.metric === 'listP50Us');
  const targets: SweepTarget[] = [];
  targets.push(
    big === undefined
      ? { target: 'turn boundary (open + listing) at 2,000 tools ≤ 2 ms', measured: 'not measured', met: undefined, kind: 'absolute' }
      : { target: 'turn boundary (open + listing) at 2,000 tools ≤ 2 ms', measured: us(big.boundaryP50Us), met: big.boundaryP50Us <= 2000, kind: 'absolute' },
  );
  targets.push(
    small === undefined
      ? { target: 'turn boundary at 19 tools ≤ 25 µs', measured: 'not measured', met: undefined, kind: 'absolute' }
      : { target: `turn boundary at ${small.tools === 1 ? '19' : `${18 + small.tools}`} tools ≤ 25 µs`, measured: us(small.boundaryP50Us), met: small.boundaryP50Us <= 25, kind: 'absolute' },
  );
  targets.push(
    slope === undefined
      ? { target: 'turn listing log–log slope ≤ 1.05 from 20 to 10,000 tools', measured: 'not measured', met: undefined, kind: 'ratio' }
      : { target: 'turn listing log–log slope ≤ 1.05 from 20 to 10,000 tools', measured: `${slope.slope} (N ${slope.fromTools}–${slope.toTools})`, met: slope.toTools >= 10000 ? slope.slope <= 1.05 : undefined, kind: 'ratio' },
  );
  targets.push(
    largest === undefined || small === undefined
      ? { target: 'turn call p50 at 10,000 tools within 1.2× of the 19-tool figure', measured: 'not measured', met: undefined, kind: 'ratio' }
      : {
          target: 'turn call p50 at 10,000 tools within 1.2× of the 19-tool figure',
          measured: `${(largest.callP50Us / small.callP50Us).toFixed(2)}× (${us(small.callP50Us)} → ${us(largest.callP50Us)})`,
          met: largest.callP50Us <= 1.2 * small.callP50Us,
          kind: 'ratio',
        },
  );
  const atLeast50 = results.sdk.filter((s) => s.tools >= 50);
  targets.push({
    target: "costlab's listing over MCP cheaper than the SDK McpServer's at every N ≥ 50",
    measured: atLeast50.length === 0 ? 'not measured' : atLeast50.map((s) => `N=${s.tools} ${s.sdkOverCostlab}×`).join(', '),
    met: atLeast50.length === 0 ? undefined : atLeast50.every((s) => s.sdkOverCostlab > 1),
    kind: 'ratio',
  });
  return targets;
}

/**
 * How the points were warmed, when the file says: each point settles before it
 * is measured (run-point.ts), so its figures are of the kernel's optimised
 * code whatever ran before it in the process.
 */
function settlingNote(points: readonly SweepPoint[]): string | undefined {
  const warm = points.map((p) => p.warmupTurns).filter((turns): turns is number => turns !== undefined);
  if (warm.length === 0) return undefined;
  const range = (lo: number, hi: number): string => (lo === hi ? lo.toLocaleString('en-US') : `${lo.toLocaleString('en-US')}–${hi.toLocaleString('en-US')}`);
  return (
    `Every point ran unmeasured turns before its measured ones (${range(Math.min(...warm), Math.max(...warm))} here): a fixed warm-up, then on until a set number of turns or a time cap, whichever came first. ` +
    'V8 optimises code that runs once per turn (lease open, the derivation, the listing) only after some thousands of turns, so without settling the first point of a curve was measured on less optimised code than the points after it ' +
    '(at f984c79 the 19-tool `turn` boundary read 34.7 µs against 25.5 µs at 218 tools): each point is now measured in the same state, whatever ran before it.'
  );
}

export function renderSweepMarkdown(results: SweepResults): string {
  const out: string[] = [];
  out.push('## Catalogue resolution at scale');
  out.push('');
  out.push(
    `Command ${markdownCode(results.command, 1_000)} at commit \`${results.commit.slice(0, 12)}\`${results.dirty ? ' (working tree dirty)' : ''}, ${results.createdAt}; ` +
      `${results.environment.cpuModel}, ${results.environment.cores} cores, Node ${results.environment.node}; load average ${results.loadAverage.start.toFixed(1)} at start, ${results.loadAverage.end.toFixed(1)} at end. ` +
      'Absolute times on a loaded machine are inflated and noisy; read the ratios and slopes within the run.',
  );
  out.push('');
  out.push('N counts provider tools (the 18 static reference tools come on top); P providers share them; C calls per turn are the first C attempts of the reference workload; G grants per principal. Per point: p50 over the measured turns; "amortized" is the whole turn (open to close) over C.');
  out.push('');
  const settled = settlingNote(results.points);
  if (settled !== undefined) {
    out.push(settled);
    out.push('');
  }
  out.push('The generated providers declare a catalogue revision (ADR 0021) unless marked otherwise; `rederive` and `shared` ignore it. The `turn` curve without it (every definition compared each turn, ADR 0018) is measured beside.');
  for (const strategy of ['rederive', 'shared', 'turn'] as const) {
    const curve = results.points.filter((p) => p.axis === 'tools' && p.strategy === strategy && p.changeSignal !== false).sort((a, b) => a.tools - b.tools);
    if (curve.length === 0) continue;
    out.push('');
    out.push(`### N provider tools, \`${strategy}\` (P = 1, C = 27, G = 6)`);
    out.push('');
    out.push(table(['N', ...POINT_HEADER], curve.map((p) => pointRow(p, p.tools.toLocaleString('en-US')))));
    const slopes = results.slopes.filter((s) => s.strategy === strategy);
    if (slopes.length > 0) {
      out.push('');
      out.push(`Fitted log–log slopes (N ${slopes[0]!.fromTools}–${slopes[0]!.toTools}): ${slopes.map((s) => `${s.metric.replace('P50Us', '')} ${s.slope}`).join(', ')}.`);
    }
  }
  const unsignalled = results.points.filter((p) => p.axis === 'tools' && p.strategy === 'turn' && p.changeSignal === false).sort((a, b) => a.tools - b.tools);
  if (unsignalled.length > 0) {
    out.push('');
    out.push('### N provider tools, `turn`, providers without a change signal (P = 1, C = 27, G = 6)');
    out.push('');
    out.push(table(['N', ...POINT_HEADER], unsignalled.map((p) => pointRow(p, p.tools.toLocaleString('en-US')))));
  }
  for (const axis of ['providers', 'calls', 'grants'] as const) {
    const rows = results.points.filter((p) => p.axis === axis).sort((a, b) => a.tools - b.tools || a[axis] - b[axis]);
    if (rows.length === 0) continue;
    const base = results.points.filter((p) => p.axis === 'tools' && p.strategy === 'turn' && p.changeSignal !== false && rows.some((r) => r.tools === p.tools));
    const all = [...base.map((p) => ({ ...p, axis })), ...rows].sort((a, b) => a.tools - b.tools || a[axis] - b[axis]);
    out.push('');
    out.push(`### ${axis === 'providers' ? 'P providers' : axis === 'calls' ? 'C calls per turn' : 'G grants per principal'}, \`turn\``);
    out.push('');
    out.push(table(['N', axis === 'providers' ? 'P' : axis === 'calls' ? 'C' : 'G', ...POINT_HEADER], all.map((p) => [p.tools.toLocaleString('en-US'), ...pointRow(p, String(p[axis]))])));
  }
  if (results.sdk.length > 0) {
    out.push('');
    out.push('### tools/list beside the official SDK (in-memory transport, same run)');
    out.push('');
    out.push('SDK: `McpServer` with the N tools declared with zod schemas, tools/list round trip. costlab: the turn\'s listing over MCP — bridge open (lease + kernel listing) plus the tools/list round trip; the round trip alone beside it.');
    out.push('');
    out.push(table(['N', 'SDK McpServer p50', 'costlab turn listing p50', 'costlab tools/list alone p50', 'SDK ÷ costlab'], results.sdk.map((s) => [s.tools.toLocaleString('en-US'), us(s.sdkListP50Us), us(s.costlabTurnListP50Us), us(s.costlabListP50Us), `${s.sdkOverCostlab}×`])));
  }
  if (results.skipped.length > 0) {
    out.push('');
    out.push('### Skipped');
    out.push('');
    for (const s of results.skipped) out.push(`- ${s.strategy} N=${s.tools} P=${s.providers} C=${s.calls} G=${s.grants}${s.changeSignal === false ? ' without a change signal' : ''} (${s.axis} curve): ${escapeMarkdown(s.reason, 1_000)}`);
  }
  out.push('');
  out.push('### Targets (this run)');
  out.push('');
  out.push(table(['target', 'kind', 'measured', 'met'], checkSweepTargets(results).map((t) => [t.target, t.kind, t.measured, t.met === undefined ? 'not measured' : t.met ? 'yes' : 'no'])));
  const note = unsignalledNote(results);
  if (note !== undefined) out.push('', note);
  out.push('');
  out.push('A missed `ratio` target (a ratio or a fitted slope, judged within this run) fails `costlab sweep`; an `absolute` ceiling in µs belongs to a machine and is reported only.');
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
    `From \`${source}\`: \`${results.command}\` at commit \`${results.commit.slice(0, 12)}\`${results.dirty ? ' (dirty)' : ''}, ${results.createdAt}, load average ${results.loadAverage.start.toFixed(1)} → ${results.loadAverage.end.toFixed(1)} on ${results.environment.cores} cores. ` +
      'N provider tools on top of the 18 static ones, one provider, 27 calls a turn, 6 grants; p50s. Every curve, the P, C and G axes and what was skipped are in `scale-sweep.md`.',
  );
  const sizes = [...new Set(results.points.filter((p) => p.axis === 'tools').map((p) => p.tools))].sort((a, b) => a - b);
  const at = (strategy: string, tools: number) => results.points.find((p) => p.axis === 'tools' && p.strategy === strategy && p.tools === tools && p.changeSignal !== false);
  const strategies = (['rederive', 'shared', 'turn'] as const).filter((strategy) => sizes.some((n) => at(strategy, n) !== undefined));
  for (const [label, metric] of [
    ['turn boundary (lease open + listing)', 'boundaryP50Us'],
    ['mediated call', 'callP50Us'],
    ['per call, amortized over the turn (whole turn ÷ C)', 'amortizedP50Us'],
  ] as const) {
    out.push('', `**${label}**, p50:`, '');
    out.push(
      table(
        ['N', ...strategies],
        sizes.map((n) => [n.toLocaleString('en-US'), ...strategies.map((strategy) => { const p = at(strategy, n); return p === undefined ? '—' : us(p[metric]); })]),
      ),
    );
  }
  if (results.slopes.length > 0) {
    out.push('', 'Fitted log–log slopes over N:', '');
    out.push(table(['strategy', 'N range', 'listing', 'boundary', 'call', 'amortized'], strategies.filter((strategy) => results.slopes.some((s) => s.strategy === strategy)).map((strategy) => {
      const of = (metric: string) => results.slopes.find((s) => s.strategy === strategy && s.metric === metric);
      const any = of('listP50Us');
      return [strategy, any === undefined ? '—' : `${any.fromTools}–${any.toTools}`, ...['listP50Us', 'boundaryP50Us', 'callP50Us', 'amortizedP50Us'].map((metric) => String(of(metric)?.slope ?? '—'))];
    })));
  }
  if (results.sdk.length > 0) {
    out.push('', `tools/list over the in-memory transport, SDK \`McpServer\` ÷ costlab (above 1: costlab cheaper): ${results.sdk.map((s) => `N=${s.tools.toLocaleString('en-US')} ${s.sdkOverCostlab}×`).join(', ')}.`);
  }
  out.push('', table(['sweep target', 'kind', 'measured', 'met'], checkSweepTargets(results).map((t) => [t.target, t.kind, t.measured, t.met === undefined ? 'not measured' : t.met ? 'yes' : 'no'])));
  const note = unsignalledNote(results);
  if (note !== undefined) out.push('', note);
  return out.join('\n');
}
