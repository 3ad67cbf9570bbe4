/**
 * The bench's world builders: the reference kernel, the scaled and publisher
 * worlds, the workload and its turn.
 * This is the room's face: the command line imports the room only here.
 */
export { buildReferenceKernel } from './build-world.js';
export { WorkloadMismatch } from './workload-turn.js';
export { TURN_ATTEMPTS } from './workload.js';
