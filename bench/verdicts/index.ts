/**
 * Judgements read from a results file: whether the staircase reproduces the
 * published one, and the targets met or missed.
 * This is the room's face: the command line imports the room only here.
 */
export { failingTargets } from './targets.js';
