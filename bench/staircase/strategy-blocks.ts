/**
 * Turns of one strategy in a row in the staircase run (ADR 0027): few enough
 * that drift still lands on all three strategies within a round of blocks,
 * enough that nine turns in ten follow their own kernel's previous turn.
 */
export const BLOCK_TURNS = 10;
