/**
 * The progress room: how long work reports on stderr (a bar on a terminal,
 * plain lines in a log), for the bench, the gate, the command line and the
 * scripts. It measures nothing; it imports only the format room.
 */
export { Progress, progressLines } from './progress.js';
