/**
 * Kept only for `probe.ts`, which must not change while the gate baseline is
 * regenerated from it: the statistics live in `bench/statistics/sample-statistics.ts`.
 * Delete this file once probe.ts imports that module.
 */
export { nearestRank } from '../statistics/sample-statistics.js';
