/**
 * The format room: how every writer in the tree prints a number (µs, ratios,
 * shares, counts, sizes, durations). It measures nothing and imports nothing,
 * so any room, the command line and the scripts may take it.
 */
export * from './number-format.js';
export * from './memory-figures.js';
export * from './elapsed-time.js';
