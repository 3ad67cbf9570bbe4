/**
 * The grid `costlab map` measures (ADR 0045): provider tools × grants, every
 * other quantity of the publisher-shaped world held. Refused before anything
 * runs when an axis is empty, repeats a value or leaves the range a world
 * can have (a grant count past the spec's 256, provider tools past what the
 * catalogue limits allow), each refusal naming the flag and the value.
 */
import { FlagProblem } from '../command-line/flag-values.js';
import type { FlagCheck } from '../command-line/flag-values.js';
import { MAX_GRANTS } from '../../src/kernel/index.js';
import { STATIC_TOOL_SPECS, referenceGrants } from '../../src/world/index.js';

export interface MapGrid {
  readonly providerTools: readonly number[];
  readonly grants: readonly number[];
}

/**
 * Five values each: provider tools from the publisher's one to six (the
 * catalogue `shared` resolves per call growing sixfold), grants from the
 * actor's own six to the spec's limit, through the publisher-shaped world's 120.
 */
export const FULL_GRID: MapGrid = Object.freeze({ providerTools: [1, 2, 3, 4, 6], grants: [6, 64, 120, 192, 256] });
/** CI's grid: the corners and the publisher-shaped world's row and column. */
export const QUICK_GRID: MapGrid = Object.freeze({ providerTools: [1, 2, 4], grants: [6, 120, 256] });

/**
 * Turns per strategy at each point, sized so a full map of the default grid runs in well under an hour on the 2-core
 * VM (`costlab map`, at a6e83b7: 1,405 s at load 15–30, ADR 0045) and CI's quick grid in minutes.
 */
export const FULL_MAP_TURNS = Object.freeze({ warmup: 30, measured: 100 });
export const QUICK_MAP_TURNS = Object.freeze({ warmup: 5, measured: 20 });

/**
 * The most provider tools a map point may have: the publisher's world is 19 definitions, and a map of hundreds measures
 * catalogue size, which `costlab sweep` does.
 */
const MAX_MAP_PROVIDER_TOOLS = 64;

export const AXIS_RANGES = Object.freeze({
  providerTools: { min: 1, max: MAX_MAP_PROVIDER_TOOLS },
  grants: { min: referenceGrants().length, max: MAX_GRANTS },
});

/** A comma-separated list of distinct integers in [min, max], ascending as given or not; refused whole otherwise. */
export function axisValues(min: number, max: number): FlagCheck<number[]> {
  const expected = `a comma-separated list of distinct integers from ${min} to ${max}`;
  return (given) => {
    const parts = given.split(',').map((part) => part.trim());
    if (given.trim() === '' || parts.some((part) => !/^\d+$/.test(part))) return new FlagProblem(given, expected);
    const values = parts.map(Number);
    if (values.some((value) => value < min || value > max) || new Set(values).size !== values.length)
      return new FlagProblem(given, expected);
    return values.sort((a, b) => a - b);
  };
}

/** The static tools of a map point: the workload's 18, as in both worlds. */
export const MAP_STATIC_TOOLS = STATIC_TOOL_SPECS.length;
