/**
 * `profiles/<commit>/summary.md` (and the same figures as `summary.json`):
 * per strategy, the top self-time frames and the computed verdict on
 * registration/validation work, with links to the flame graphs and clinic
 * reports beside it. Links are relative to the summary, so the directory can
 * be moved or archived whole; the report links the summary from its page.
 */
import { markdownTable } from 'markdown-table';
import type { CatalogueStrategyName } from '../../src/kernel/index.js';
import { escapeMarkdown, markdownCode } from '../../src/conformance/index.js';
import { GAP_FACTOR } from '../profile/cpuprofile.js';
import { FRAME_CLASSES } from '../profile/frame-classifier.js';
import { DOMINANCE_THRESHOLD, FRAME_ATTRIBUTION_THRESHOLD } from '../profile/profile-analysis.js';
import type { ProfileAnalysis } from '../profile/profile-analysis.js';
import { formatFixed, formatPercentFixed as pct } from '../format/index.js';

export const PROFILE_SUMMARY_SCHEMA_VERSION = 1;

/** Paths relative to the commit's profile directory, POSIX separators. */
export interface StrategyProfileFiles {
  readonly flameGraph?: string;
  readonly cpuProfile: string;
  readonly sourceMaps: string;
  readonly clinicDoctor?: string;
  readonly clinicFlame?: string;
}

export interface StrategyProfile {
  readonly strategy: CatalogueStrategyName;
  readonly files: StrategyProfileFiles;
  /** The workload's own closing line from the `--cpu-prof` run. */
  readonly workload?: string;
  readonly analysis: ProfileAnalysis;
}

export interface ProfileEnvironment {
  readonly node: string;
  readonly v8: string;
  readonly platform: string;
  readonly cpu: string;
  readonly cores: number;
}

export interface ProfileSummary {
  readonly schemaVersion: typeof PROFILE_SUMMARY_SCHEMA_VERSION;
  readonly commit: string;
  readonly generatedAt: string;
  readonly environment: ProfileEnvironment;
  readonly turns: number;
  readonly callsPerTurn: number;
  /** Turns in flight at once under clinic; undefined when clinic was skipped. */
  readonly clinicConcurrency?: number;
  readonly topN: number;
  readonly strategies: readonly StrategyProfile[];
}

const ms = (x: number): string => formatFixed(x, 1);

function link(label: string, href: string | undefined): string | undefined {
  return href === undefined ? undefined : `[${label}](${href.split('/').map(encodeURIComponent).join('/')})`;
}

function methodSection(summary: ProfileSummary): string[] {
  return [
    '## How the figures are computed',
    '',
    "- **Self time** of a frame: the number of samples taken while it was on top of the stack × the profile's " +
      "mean sampling interval (as Chrome DevTools' bottom-up view counts), so a gap in sampling on a busy machine " +
      'is spread over all frames rather than charged to the frame sampled before it; shares are sample fractions. ' +
      'Frames are grouped by function and position; TypeScript positions are mapped back through the source maps ' +
      'the profiled process held (`cpu.source-maps.json`).',
    "- **Active time**: every sample but `(idle)`; a frame's *share* is of active time. **Kernel time**: " +
      'samples with a `src/kernel/` frame on their stack — the mediation itself, without start-up, module loading ' +
      'and the workload driver.',
    '- **Frame classes** (by the frame itself): `registration` = `registerEntry` / `register` ' +
      "(`src/kernel/registry/tool-registry.ts`); `validation` = any frame of the `zod` package and the kernel's " +
      "`parseContract`; `json-clone` = V8's `JSON.parse` / `JSON.stringify` builtins (V8 usually folds them into " +
      "the caller, so the JSON round trip mostly shows as `registerEntry`'s own time); `freeze` = `deepFreeze`; " +
      '`runtime` = V8 pseudo-frames (`(garbage collector)`, `(program)`) and `node:` internals; `kernel` = other ' +
      '`src/kernel/` frames; `other` = the rest. Frames without a script (natives, code zod compiles with `new ' +
      "Function`) take their caller's class.",
    '- **Registration stack**: a sample with a `registration` frame on its stack. *Registration/validation ' +
      'work* is registration-stack time: the zod parsing, JSON cloning and freezing of a definition being ' +
      "registered. Validation and freezing also run outside registration — every call's arguments are parsed and " +
      'frozen, every audit event is frozen, in every strategy — and that time is not counted; the *on registration ' +
      'stack* column shows the split per frame.',
    `- **Verdict**: \`dominant\` when registration-stack time is ≥ ${pct(DOMINANCE_THRESHOLD)} of kernel time; ` +
      `otherwise \`present\` when any of the top ${summary.topN} frames spends ` +
      `≥ ${pct(FRAME_ATTRIBUTION_THRESHOLD)} of its self time on a registration stack, else \`absent\`.`,
    '- Sampling profiles attribute time, they do not time calls: the harness (`results/`) gives the per-call ' +
      'figures; these say where the CPU went.',
    '',
  ];
}

function strategySection(profile: StrategyProfile): string[] {
  const { analysis, files } = profile;
  const links = [
    link('flame graph (0x)', files.flameGraph),
    link('CPU profile', files.cpuProfile),
    link('clinic doctor', files.clinicDoctor),
    link('clinic flame', files.clinicFlame),
  ].filter((l): l is string => l !== undefined);
  const lines = [
    `## \`${profile.strategy}\``,
    '',
    `**${analysis.verdict.kind}.** ${analysis.verdict.statement}`,
    '',
    `Files: ${links.join(' · ')}`,
    '',
  ];
  if (profile.workload !== undefined) lines.push(`Workload: ${markdownCode(profile.workload)}`, '');
  const { sampling } = analysis;
  lines.push(
    `Sampled ${ms(analysis.sampledMs)} ms in ${analysis.sampleCount} samples; active ${ms(analysis.activeMs)} ` +
      `ms; kernel ${ms(analysis.kernelMs)} ms; registration stack ${ms(analysis.registrationMs)} ms.`,
    `Sampling: median interval ${formatFixed(sampling.medianIntervalUs / 1000, 2)} ` +
      `ms; ${pct(sampling.gapShare)} of the span fell in gaps over ${GAP_FACTOR}× that (the process off CPU or the ` +
      `sampler late: a busy machine stretches ms figures, not shares).`,
    '',
    markdownTable(
      [
        ['#', 'function', 'file:line', 'self ms', 'share', 'class', 'on registration stack'],
        ...analysis.topFrames.map((frame, i) => [
          String(i + 1),
          markdownCode(frame.functionName),
          escapeMarkdown(frame.location),
          ms(frame.selfMs),
          pct(frame.share),
          frame.frameClass,
          pct(frame.onRegistrationStack),
        ]),
      ],
      { alignDelimiters: false, align: ['r', 'l', 'l', 'r', 'r', 'l', 'r'] },
    ),
  );
  const byClass = FRAME_CLASSES.map(
    (c) =>
      `${c} ${ms(analysis.byClass[c])} ms ` +
      `(${pct(analysis.activeMs === 0 ? 0 : analysis.byClass[c] / analysis.activeMs)})`,
  );
  lines.push('', `Active time by class: ${byClass.join(' · ')}.`, '');
  return lines;
}

export function renderProfileSummary(summary: ProfileSummary): string {
  const env = summary.environment;
  const clinic =
    summary.clinicConcurrency === undefined
      ? 'clinic was skipped (`--no-clinic`).'
      : `clinic doctor and clinic flame run the same number of turns, ${summary.clinicConcurrency} at a time, and ` +
        `are linked below for each strategy where they completed.`;
  const lines = [
    `# Profile summary: \`${summary.commit}\``,
    '',
    `Generated ${summary.generatedAt} with Node ${env.node} (V8 ${env.v8}) ` +
      `on ${env.platform}, ${escapeMarkdown(env.cpu)} × ${env.cores}.`,
    `Each strategy ran ${summary.turns} turns of the reference world (${summary.callsPerTurn} calls a turn) ` +
      `under \`node --cpu-prof\` (the tables below) and under 0x (the flame graphs); ${clinic}`,
    '',
    '## Verdicts',
    '',
    markdownTable(
      [
        [
          'strategy',
          'registration stack, share of kernel time',
          'share of active time',
          `top ${summary.topN} frames registering`,
          'verdict',
        ],
        ...summary.strategies.map(({ strategy, analysis: { verdict: v } }) => [
          `\`${strategy}\``,
          pct(v.shareOfKernel),
          pct(v.shareOfActive),
          `${v.registrationTopFrames} of ${v.topN}`,
          v.kind,
        ]),
      ],
      { alignDelimiters: false, align: ['l', 'r', 'r', 'r', 'l'] },
    ),
    '',
    ...methodSection(summary),
    ...summary.strategies.flatMap(strategySection),
    '---',
    '',
    'Regenerate with `costlab profile` (see `profiles/README.md`).',
    '',
  ];
  return lines.join('\n');
}
