/**
 * CPU profiles and flame graphs of the workload turn (a checkout-only
 * command).
 * This is the room's face: the command line imports the room only here.
 */
export { DEFAULT_TOP_FRAMES } from './profile-analysis.js';
export { PROFILE_DEFAULTS } from './profile-options.js';
export { runProfile } from './run-profile.js';
