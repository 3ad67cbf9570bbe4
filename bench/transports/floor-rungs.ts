/**
 * What the floor serves on each rung of the floor ladder below costlab's (floor-ladder.ts, ADR 0085): every mechanism
 * of costlab's up to the rung, in the order a call meets them, each with the kernel's or the bridge's own code
 * (bench/micro/floor-mechanisms.ts), and from the `meta` rung up the result's `_meta`. The ladder's in-process and
 * HTTP rungs and its stdio children (bare-sdk-stdio.ts `--rung`) serve the floor from here.
 */
import { LADDER_RUNGS, ladderRungsOf } from '../results/results-schema.js';
import type { LadderRung, LadderTransport } from '../results/results-schema.js';
import { cancellable, combined, contracts, envelope, frozen } from '../micro/floor-mechanisms.js';
import type { FloorMechanism } from '../micro/floor-mechanisms.js';
import { TRANSPORT_CALL } from './bare-sdk-server.js';
import type { FloorServerOptions } from './floor-sdk-server.js';

/** A rung the floor serves: every rung but costlab's own. */
export type FloorRung = Exclude<LadderRung, 'costlab'>;

/** The rungs the floor serves on `transport`'s ladder, bottom to top: every one of the ladder's but costlab's. */
export function floorRungsOf(transport: LadderTransport): readonly FloorRung[] {
  return ladderRungsOf(transport).filter((rung): rung is FloorRung => rung !== 'costlab');
}

/** The mechanisms in the order a call meets them, made afresh for each rung; `meta` is the floor server's option. */
function mechanismsOfRungs(): ReadonlyArray<readonly [LadderRung, FloorMechanism]> {
  return [
    ['envelope', envelope(new Set([TRANSPORT_CALL.name]))],
    ['contracts', contracts],
    ['frozen', frozen],
    ['cancellable', cancellable()],
  ];
}

const rungIndex = (rung: LadderRung): number => LADDER_RUNGS.indexOf(rung);

/**
 * The floor server's options on `rung`: every mechanism up to it, and `_meta` from the meta rung up, with call ids
 * `<callIdPrefix>/call-<n>` (absent, as long as an execution's).
 */
export function floorRungOptions(rung: FloorRung, callIdPrefix?: string): FloorServerOptions {
  const mechanisms = combined(
    mechanismsOfRungs()
      .filter(([name]) => rungIndex(name) <= rungIndex(rung))
      .map(([, mechanism]) => mechanism),
  );
  return {
    around: (turn) => mechanisms.around((call) => turn.call(call)),
    handler: mechanisms.handler,
    successMeta: rungIndex(rung) >= rungIndex('meta'),
    ...(callIdPrefix === undefined ? {} : { callIdPrefix }),
  };
}
