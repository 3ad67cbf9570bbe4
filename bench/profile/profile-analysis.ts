/**
 * From one strategy's `.cpuprofile` to what the summary prints: the top
 * self-time frames, time per frame class, and a verdict on whether
 * registration/validation work dominates — computed by a stated rule, so the
 * summary says what the data shows.
 *
 * Denominators:
 * - **active** time: every sample except `(idle)`; frame shares are of this;
 * - **kernel** time: samples with a `src/kernel/` frame on their stack — the
 *   mediation the workload asked for, without start-up, module loading or
 *   the workload driver; like "catalogue share of a mediated call", the
 *   verdict's share is of this.
 *
 * The verdict (see `frame-classifier.ts` for "registration stack"):
 * - `dominant`: registration-stack time ≥ 50% of kernel time — registering
 *   entries costs more than everything else the kernel does together;
 * - otherwise `present` when at least one of the top N frames spends most
 *   (≥ 50%) of its self time on a registration stack, else `absent`.
 */
import type { CallFrame, CpuProfile, SamplingHealth } from './cpuprofile.js';
import { nodeSelfTimes, samplingHealth } from './cpuprofile.js';
import { FRAME_CLASSES, classifyNodes } from './frame-classifier.js';
import type { FrameClass } from './frame-classifier.js';
import { nameFrame } from './frame-location.js';
import type { PositionMapper } from './source-map-sidecar.js';
import { identityPositions } from './source-map-sidecar.js';
import { formatPercentFixed as percent } from '../format/index.js';

export const DEFAULT_TOP_FRAMES = 15;
/** Registration-stack share of kernel time at or above which registration dominates. */
export const DOMINANCE_THRESHOLD = 0.5;
/**
 * Share of a frame's own time on a registration stack at or above which it counts as a registration/validation frame.
 */
export const FRAME_ATTRIBUTION_THRESHOLD = 0.5;

interface FrameSelfTime {
  readonly functionName: string;
  readonly location: string;
  readonly selfMs: number;
  /** selfMs ÷ active time. */
  readonly share: number;
  /** The class holding most of this frame's self time (frames without a script inherit their caller's). */
  readonly frameClass: FrameClass;
  /** Fraction of this frame's self time sampled on a registration stack. */
  readonly onRegistrationStack: number;
}

type RegistrationVerdictKind = 'dominant' | 'present' | 'absent';

interface RegistrationVerdict {
  readonly kind: RegistrationVerdictKind;
  /** Registration-stack time ÷ kernel time (0 when the profile has no kernel time). */
  readonly shareOfKernel: number;
  /** Registration-stack time ÷ active time. */
  readonly shareOfActive: number;
  /** Top frames that spend ≥ 50% of their self time on a registration stack. */
  readonly registrationTopFrames: number;
  /** Top frames of class `validation` that do not: schema parsing of calls and contexts, not of definitions. */
  readonly otherValidationTopFrames: number;
  readonly topN: number;
  /** The highest-ranked of those frames (rank 1-based), if any. */
  readonly firstRegistrationFrame?: { readonly rank: number; readonly functionName: string; readonly share: number };
  /** One sentence, computed from the figures above. */
  readonly statement: string;
}

export interface ProfileAnalysis {
  readonly sampledMs: number;
  readonly idleMs: number;
  readonly activeMs: number;
  readonly kernelMs: number;
  readonly registrationMs: number;
  readonly sampleCount: number;
  readonly sampling: SamplingHealth;
  /** Active self time per frame class, ms. */
  readonly byClass: Readonly<Record<FrameClass, number>>;
  readonly topFrames: readonly FrameSelfTime[];
  readonly verdict: RegistrationVerdict;
}

export interface AnalysisOptions {
  readonly topN?: number;
  readonly mapPosition?: PositionMapper;
  readonly repoRoot?: string;
}

function frameKey(frame: CallFrame): string {
  return `${frame.functionName}\u0000${frame.url}\u0000${frame.lineNumber}\u0000${frame.columnNumber}`;
}

interface FrameAccumulator {
  readonly frame: CallFrame;
  selfUs: number;
  registrationUs: number;
  readonly byClass: Map<FrameClass, number>;
}

function verdictStatement(kind: RegistrationVerdictKind, v: Omit<RegistrationVerdict, 'kind' | 'statement'>): string {
  const head =
    kind === 'dominant'
      ? `Registration/validation work dominates: ${percent(v.shareOfKernel)} of kernel time is on a registration ` +
        `stack (threshold ${percent(DOMINANCE_THRESHOLD)})`
      : kind === 'present'
        ? `Registration/validation work is present but does not dominate: ${percent(v.shareOfKernel)} of kernel ` +
          `time is on a registration stack (threshold ${percent(DOMINANCE_THRESHOLD)})`
        : `Registration/validation work is absent from the top ${v.topN} frames: ${percent(v.shareOfKernel)} of ` +
          `kernel time is on a registration stack`;
  const first = v.firstRegistrationFrame;
  const frames =
    `${v.registrationTopFrames} of the top ${v.topN} frames spend most of their self time registering entries` +
    (first === undefined
      ? ''
      : ` (highest: \`${first.functionName}\`, #${first.rank}, ${percent(first.share)} of active time)`);
  const other =
    v.otherValidationTopFrames === 0
      ? ''
      : `; ${v.otherValidationTopFrames} other schema-validation ` +
        `frame${v.otherValidationTopFrames === 1 ? '' : 's'} in the top ${v.topN} parse calls and contexts, not ` +
        `definitions`;
  return `${head}; ${frames}${other}.`;
}

export function analyseCpuProfile(profile: CpuProfile, options: AnalysisOptions = {}): ProfileAnalysis {
  const topN = options.topN ?? DEFAULT_TOP_FRAMES;
  const mapPosition = options.mapPosition ?? identityPositions;
  const self = nodeSelfTimes(profile);
  const classes = classifyNodes(profile);
  const frames = new Map<string, FrameAccumulator>();
  const byClassUs = new Map<FrameClass, number>(FRAME_CLASSES.map((c) => [c, 0]));
  let sampledUs = 0;
  let idleUs = 0;
  let kernelUs = 0;
  let registrationUs = 0;

  for (const node of profile.nodes) {
    const us = self.get(node.id) ?? 0;
    if (us === 0) continue;
    sampledUs += us;
    if (node.callFrame.functionName === '(idle)' && node.callFrame.url === '') {
      idleUs += us;
      continue;
    }
    const c = classes.get(node.id)!;
    byClassUs.set(c.frameClass, byClassUs.get(c.frameClass)! + us);
    if (c.onKernelStack) kernelUs += us;
    if (c.onRegistrationStack) registrationUs += us;
    const key = frameKey(node.callFrame);
    let acc = frames.get(key);
    if (acc === undefined) {
      acc = { frame: node.callFrame, selfUs: 0, registrationUs: 0, byClass: new Map() };
      frames.set(key, acc);
    }
    acc.selfUs += us;
    if (c.onRegistrationStack) acc.registrationUs += us;
    acc.byClass.set(c.frameClass, (acc.byClass.get(c.frameClass) ?? 0) + us);
  }

  const activeUs = sampledUs - idleUs;
  const ranked = [...frames.entries()].sort(
    (a, b) => b[1].selfUs - a[1].selfUs || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0),
  );
  const topFrames: FrameSelfTime[] = ranked.slice(0, topN).map(([, acc]) => {
    const name = nameFrame(acc.frame, mapPosition, options.repoRoot);
    const frameClass = [...acc.byClass.entries()].sort((a, b) => b[1] - a[1])[0]![0];
    return {
      functionName: name.functionName,
      location: name.location,
      selfMs: acc.selfUs / 1000,
      share: activeUs === 0 ? 0 : acc.selfUs / activeUs,
      frameClass,
      onRegistrationStack: acc.selfUs === 0 ? 0 : acc.registrationUs / acc.selfUs,
    };
  });

  const shareOfKernel = kernelUs === 0 ? 0 : registrationUs / kernelUs;
  const shareOfActive = activeUs === 0 ? 0 : registrationUs / activeUs;
  const registrationTopFrames = topFrames.filter((f) => f.onRegistrationStack >= FRAME_ATTRIBUTION_THRESHOLD).length;
  const firstIndex = topFrames.findIndex((f) => f.onRegistrationStack >= FRAME_ATTRIBUTION_THRESHOLD);
  const firstRegistrationFrame =
    firstIndex < 0
      ? undefined
      : {
          rank: firstIndex + 1,
          functionName: topFrames[firstIndex]!.functionName,
          share: topFrames[firstIndex]!.share,
        };
  const otherValidationTopFrames = topFrames.filter(
    (f) => f.frameClass === 'validation' && f.onRegistrationStack < FRAME_ATTRIBUTION_THRESHOLD,
  ).length;
  const kind: RegistrationVerdictKind =
    shareOfKernel >= DOMINANCE_THRESHOLD ? 'dominant' : registrationTopFrames > 0 ? 'present' : 'absent';
  const figures = {
    shareOfKernel,
    shareOfActive,
    registrationTopFrames,
    otherValidationTopFrames,
    topN: topFrames.length,
    ...(firstRegistrationFrame === undefined ? {} : { firstRegistrationFrame }),
  };

  const byClass = Object.fromEntries(FRAME_CLASSES.map((c) => [c, byClassUs.get(c)! / 1000])) as Record<
    FrameClass,
    number
  >;
  return {
    sampledMs: sampledUs / 1000,
    idleMs: idleUs / 1000,
    activeMs: activeUs / 1000,
    kernelMs: kernelUs / 1000,
    registrationMs: registrationUs / 1000,
    sampleCount: profile.samples.length,
    sampling: samplingHealth(profile),
    byClass,
    topFrames,
    verdict: { kind, ...figures, statement: verdictStatement(kind, figures) },
  };
}
