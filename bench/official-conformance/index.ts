/**
 * The official MCP conformance suite run against costlab's own server or a
 * user's.
 * This is the room's face: the command line imports the room only here.
 */
export { runOfficialSuite } from './run-official.js';
export { startSelfServer } from './self-server.js';
export type { SelfServer } from './self-server.js';
