/**
 * Preloaded into a served process by the soaks (`node --expose-gc --import tsx
 * --import ./scripts/reliability/heap-probe.ts bin/costlab.mjs serve ...`):
 * asked over the IPC channel, it runs full collections and answers the
 * process's memory, so a soak reads the server's own heap, not its client's.
 */
export interface HeapSample {
  readonly heapUsedBytes: number;
  readonly rssBytes: number;
  readonly externalBytes: number;
}

const gc = (globalThis as { gc?: () => void }).gc;
if (typeof process.send === 'function') {
  process.on('message', (message: unknown) => {
    if (message !== 'heap-sample') return;
    // Two rounds: the first may only queue finalizers whose objects the second frees.
    gc?.();
    gc?.();
    const usage = process.memoryUsage();
    const sample: HeapSample = { heapUsedBytes: usage.heapUsed, rssBytes: usage.rss, externalBytes: usage.external };
    process.send!(gc === undefined ? { error: 'the served process was started without --expose-gc' } : sample);
  });
  // The channel must not keep a stdio server alive once its client has gone.
  process.channel?.unref();
}
