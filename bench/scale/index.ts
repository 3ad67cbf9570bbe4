/**
 * The scale sweep: plan, shards, the run of one point, and the merge of
 * shards.
 * This is the room's face: the command line imports the room only here.
 */
export { runSweep, writeSweepOutputs } from './run-sweep.js';
export { SweepMergeRefused, mergeSweepShards, readShardFiles } from './sweep-merge.js';
export { parseShard } from './sweep-shard.js';
export type { Shard } from './sweep-shard.js';
