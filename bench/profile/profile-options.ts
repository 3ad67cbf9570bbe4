/**
 * The options of a profile run; `costlab profile` (cli/commands/profile.ts) reads and checks them from the command
 * line.
 */
import type { CatalogueStrategyName } from '../../src/kernel/index.js';

export interface ProfileOptions {
  readonly strategies: readonly CatalogueStrategyName[];
  readonly turns: number;
  /** Turns in flight at once under clinic. */
  readonly concurrent: number;
  readonly clinic: boolean;
  /** Where `<commit>/` is written, relative to the repository root unless absolute. */
  readonly outDir: string;
  readonly topN: number;
}

/**
 * 1000 turns (27,000 calls) keeps start-up and module loading a small part of
 * even the cheapest strategy's profile; 8 concurrent turns is enough for
 * clinic doctor to see the event loop held by CPU-bound mediation.
 */
export const PROFILE_DEFAULTS = Object.freeze({ turns: 1000, concurrent: 8, outDir: 'profiles' });
