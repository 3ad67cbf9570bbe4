export type SpanName =
  | 'kernel.tool.invoke'
  | 'kernel.tool.catalogue'
  | 'kernel.tool.discover'
  | 'kernel.authorize'
  | 'kernel.tool.handler'
  | 'mcp.handle';

/**
 * The steps of a mediated call, in the order the kernel takes them (SPEC
 * §1.6). A sink that wants the finer split is told the end of each; between
 * the call span's start, the marks and its end, every instant of the call
 * falls in exactly one step. A refusal ends with `outcome.record`.
 */
export const STEP_NAMES = [
  'call.contract',
  'context',
  'authority',
  'catalogue',
  'lookup',
  'discover',
  'arguments',
  'requirement',
  'authorize',
  'decision.record',
  'handler',
  'result.contract',
  'outcome.record',
] as const;
export type StepName = (typeof STEP_NAMES)[number];

/**
 * Where spans go. The sink owns the clock: with no sink installed the kernel
 * reads no clock and allocates no span object, so an uninstrumented host pays
 * one branch per span site and nothing else.
 */
export interface SpanSink {
  now(): number;
  record(name: SpanName, callId: string, start: number, end: number): void;
  /**
   * The end of one step of a call (the sink reads its clock). Optional: a sink without it costs a step one property
   * read.
   */
  mark?(step: StepName, callId: string): void;
}

/** Marks the end of `step` when the installed sink asks for steps and the call has an id to key it by. */
export function markStep(spans: SpanSink | undefined, step: StepName, callId: string | undefined): void {
  if (spans?.mark !== undefined && callId !== undefined) spans.mark(step, callId);
}
