/**
 * The inside call timer (bench/transports/inside-call-timer.ts): it times a
 * class instance's `call` only between `start` and `stop`, passes every
 * argument, answer and throw through, and leaves the prototype's method in
 * place afterwards.
 */
import { describe, expect, it } from 'vitest';
import { InsideCallTimer } from '../../bench/transports/inside-call-timer.js';

class Served {
  calls: unknown[][] = [];
  async call(...args: unknown[]): Promise<unknown> {
    this.calls.push(args);
    if (args[0] === 'throw') throw new Error('refused by the test');
    return { answered: args[0] };
  }
}

describe('the inside call timer', () => {
  it('times only between start and stop, passing calls through, and restores the method', async () => {
    const a = new Served();
    const b = new Served();
    const timer = new InsideCallTimer();
    timer.add(a);
    timer.add(b);
    expect(timer.targets).toBe(2);
    await a.call('before');
    timer.start();
    expect(Object.hasOwn(a, 'call')).toBe(true);
    expect(await a.call('x', 1)).toEqual({ answered: 'x' });
    expect(await b.call('y')).toEqual({ answered: 'y' });
    await expect(a.call('throw')).rejects.toThrow('refused by the test');
    timer.stop();
    await b.call('after');
    expect(timer.samples).toHaveLength(3);
    expect(timer.samples.every((us) => Number.isFinite(us) && us >= 0)).toBe(true);
    expect(a.calls).toEqual([['before'], ['x', 1], ['throw']]);
    expect(b.calls).toEqual([['y'], ['after']]);
    expect(Object.hasOwn(a, 'call')).toBe(false);
    expect(a.call).toBe(Served.prototype.call);
  });

  it('refuses to time a plain object, whose call is its own property', () => {
    const timer = new InsideCallTimer();
    timer.add({ call: async () => undefined });
    expect(() => timer.start()).toThrow(TypeError);
  });
});
