export type SpanName =
  | 'kernel.tool.invoke'
  | 'kernel.tool.catalogue'
  | 'kernel.tool.discover'
  | 'kernel.authorize'
  | 'kernel.tool.handler'
  | 'mcp.handle';

/**
 * Where spans go. The sink owns the clock: with no sink installed the kernel
 * reads no clock and allocates no span object, so an uninstrumented host pays
 * one branch per span site and nothing else.
 */
export interface SpanSink {
  now(): number;
  record(name: SpanName, callId: string, start: number, end: number): void;
}
