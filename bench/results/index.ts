/**
 * The results contract: the schemas of a bench, sweep and map results file,
 * where results are written, and the run's environment and context.
 * This is the room's face: the command line imports the room only here.
 */
export { costlabCommit } from './environment.js';
export { withOutputDirectory, writeOutputFile } from './output-directory.js';
export { STRATEGY_NAMES } from './results-schema.js';
export type { StrategyName } from './results-schema.js';
export { NOISE_RULE, isNoisy } from './run-context.js';
export type { SweepResults } from './sweep-schema.js';
