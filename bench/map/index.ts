/**
 * The cost map: the plan of world sizes and strategies, and the run that
 * measures each cell.
 * This is the room's face: the command line imports the room only here.
 */
export { AXIS_RANGES, FULL_GRID, QUICK_GRID, axisValues } from './map-plan.js';
export { runMap } from './run-map.js';
