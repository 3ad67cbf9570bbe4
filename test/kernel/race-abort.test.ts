/**
 * raceAbort: a raced promise settles as it would with an abort listener
 * added at once, but a listener is added only to a promise still pending a
 * few microtasks on (adding the first listener of an AbortSignal is the
 * dearest part of a fresh MCP request signal's race). A settlement watch
 * read after a hop, as the kernel's call reads its handler's: the same
 * outcomes, and no race at all for a promise settled within that hop.
 */
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { RESOLVED, raceAbort, watchSettlement } from '../../src/kernel/abort.js';

function countedSignal(): { controller: AbortController; listeners: () => number } {
  const controller = new AbortController();
  let added = 0;
  const add = controller.signal.addEventListener.bind(controller.signal);
  controller.signal.addEventListener = ((...args: Parameters<AbortSignal['addEventListener']>) => {
    added++;
    add(...args);
  }) as AbortSignal['addEventListener'];
  return { controller, listeners: () => added };
}

const never = <T>(): Promise<T> => new Promise<T>(() => undefined);

/** The kernel's steps (invoke-tool.ts, runHandler): the promise watched, one hop, its outcome taken. */
async function watchedAfterAHop<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  const watched = watchSettlement(promise);
  await RESOLVED;
  return watched.outcome(signal);
}

describe('raceAbort', () => {
  it('passes on a promise that settles at once, and adds no listener', async () => {
    const { controller, listeners } = countedSignal();
    await expect(raceAbort(Promise.resolve(7), controller.signal)).resolves.toBe(7);
    await expect(raceAbort((async () => 8)(), controller.signal)).resolves.toBe(8);
    await expect(raceAbort(Promise.reject(new Error('no')), controller.signal)).rejects.toThrow('no');
    expect(listeners()).toBe(0);
  });

  it('rejects with the abort reason when the signal aborted before the promise was seen to settle', async () => {
    const { controller } = countedSignal();
    const raced = raceAbort(Promise.resolve(1), controller.signal);
    controller.abort(new Error('first'));
    await expect(raced).rejects.toThrow('first');
    const pending = raceAbort(never<number>(), controller.signal);
    await expect(pending).rejects.toThrow('first');
  });

  it('an abort that comes while no listener is yet added still ends a promise that never settles', async () => {
    const { controller } = countedSignal();
    const raced = raceAbort(never<number>(), controller.signal);
    await Promise.resolve();
    controller.abort(new Error('early'));
    await expect(raced).rejects.toThrow('early');
  });
});

describe('a settlement watch read after a hop', () => {
  it('gives a promise settled within the hop its value itself, not a promise: no race made', async () => {
    const { controller, listeners } = countedSignal();
    const watched = watchSettlement(Promise.resolve(5));
    await RESOLVED;
    expect(watched.outcome(controller.signal)).toBe(5);
    expect(listeners()).toBe(0);
  });

  it('read with no hop, it sees even a settled promise pending, and races it', async () => {
    const { controller } = countedSignal();
    const outcome = watchSettlement(Promise.resolve(6)).outcome(controller.signal);
    expect(outcome).toBeInstanceOf(Promise);
    await expect(outcome).resolves.toBe(6);
  });

  it('answers a promise settled within a hop as it settled, with no listener added', async () => {
    const { controller, listeners } = countedSignal();
    await expect(watchedAfterAHop(Promise.resolve(7), controller.signal)).resolves.toBe(7);
    await expect(watchedAfterAHop((async () => 8)(), controller.signal)).resolves.toBe(8);
    const failure = new Error('no');
    await expect(watchedAfterAHop(Promise.reject(failure), controller.signal)).rejects.toBe(failure);
    expect(listeners()).toBe(0);
  });

  it('rejects with the abort reason when the signal aborted before the settled promise was seen', async () => {
    const { controller } = countedSignal();
    const waited = watchedAfterAHop(Promise.resolve(1), controller.signal);
    const reason = new Error('first');
    controller.abort(reason);
    await expect(waited).rejects.toBe(reason);
    // A rejection seen after the abort is the abort too, as raceAbort has it.
    await expect(watchedAfterAHop(Promise.reject(new Error('late')), controller.signal)).rejects.toBe(reason);
  });

  it('an abort reason that is not an Error is answered as an AbortError, as raceAbort answers it', async () => {
    const controller = new AbortController();
    const waited = watchedAfterAHop(Promise.resolve(1), controller.signal);
    controller.abort('a string');
    await expect(waited).rejects.toThrow(expect.objectContaining({ name: 'AbortError' }));
    await expect(raceAbort(Promise.resolve(1), controller.signal)).rejects.toThrow(
      expect.objectContaining({ name: 'AbortError' }),
    );
  });
});

/** A promise still pending a few microtasks on is raced by both: a watch hands it to raceAbort. */
describe.each([
  ['raceAbort', raceAbort],
  ['a watch read after a hop', watchedAfterAHop],
] as const)('%s, on a promise still pending', (_name, wait) => {
  it('cuts it loose when the signal aborts, with the abort reason', async () => {
    const { controller, listeners } = countedSignal();
    const raced = wait(never<number>(), controller.signal);
    for (let i = 0; i < 20; i++) await Promise.resolve();
    expect(listeners()).toBe(1);
    const reason = new Error('stop');
    controller.abort(reason);
    await expect(raced).rejects.toBe(reason);
  });

  it('removes the listener it added once the promise settles', async () => {
    const controller = new AbortController();
    let resolve!: (value: number) => void;
    const raced = wait(new Promise<number>((r) => (resolve = r)), controller.signal);
    for (let i = 0; i < 20; i++) await Promise.resolve();
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    resolve(3);
    await expect(raced).resolves.toBe(3);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });
});
