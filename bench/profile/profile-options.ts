/** The options of `costlab profile`, parsed and checked before anything runs. */
import { parseArgs } from 'node:util';
import { CATALOGUE_STRATEGIES } from '../../src/kernel/index.js';
import type { CatalogueStrategyName } from '../../src/kernel/index.js';
import { DEFAULT_TOP_FRAMES } from './profile-analysis.js';

export interface ProfileOptions {
  readonly strategies: readonly CatalogueStrategyName[];
  readonly turns: number;
  /** Turns in flight at once under clinic. */
  readonly concurrent: number;
  readonly clinic: boolean;
  /** Where `<commit>/` is written, relative to the repository root unless absolute. */
  readonly outDir: string;
  readonly topN: number;
  readonly help: boolean;
}

/**
 * 1000 turns (27,000 calls) keeps start-up and module loading a small part of
 * even the cheapest strategy's profile; 8 concurrent turns is enough for
 * clinic doctor to see the event loop held by CPU-bound mediation.
 */
export const PROFILE_DEFAULTS = Object.freeze({ turns: 1000, concurrent: 8, outDir: 'profiles' });

export const PROFILE_USAGE = [
  'usage: costlab profile [--strategy rederive|shared|turn|all] [--turns N] [--concurrent K] [--no-clinic] [--out DIR] [--top N]',
  '',
  '  --strategy    which catalogue strategy to profile (default all)',
  `  --turns       turns of the reference world per run (default ${PROFILE_DEFAULTS.turns})`,
  `  --concurrent  turns in flight at once under clinic (default ${PROFILE_DEFAULTS.concurrent})`,
  '  --no-clinic   skip clinic doctor and clinic flame (the slow part)',
  `  --out         directory that receives <commit>/ (default ${PROFILE_DEFAULTS.outDir})`,
  `  --top         frames listed per strategy (default ${DEFAULT_TOP_FRAMES})`,
].join('\n');

export class ProfileUsageError extends Error {
  override readonly name = 'ProfileUsageError';
}

function positiveInteger(flag: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 1) throw new ProfileUsageError(`${flag} must be a positive integer, got '${raw}'`);
  return value;
}

export function parseProfileArgs(argv: readonly string[]): ProfileOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        strategy: { type: 'string' },
        turns: { type: 'string' },
        concurrent: { type: 'string' },
        'no-clinic': { type: 'boolean' },
        out: { type: 'string' },
        top: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new ProfileUsageError(error instanceof Error ? error.message : String(error));
  }
  const strategy = values.strategy ?? 'all';
  let strategies: readonly CatalogueStrategyName[];
  if (strategy === 'all') strategies = CATALOGUE_STRATEGIES;
  else if ((CATALOGUE_STRATEGIES as readonly string[]).includes(strategy)) strategies = [strategy as CatalogueStrategyName];
  else throw new ProfileUsageError(`--strategy must be one of ${CATALOGUE_STRATEGIES.join(', ')} or all, got '${strategy}'`);
  return {
    strategies,
    turns: positiveInteger('--turns', values.turns, PROFILE_DEFAULTS.turns),
    concurrent: positiveInteger('--concurrent', values.concurrent, PROFILE_DEFAULTS.concurrent),
    clinic: values['no-clinic'] !== true,
    outDir: values.out ?? PROFILE_DEFAULTS.outDir,
    topN: positiveInteger('--top', values.top, DEFAULT_TOP_FRAMES),
    help: values.help === true,
  };
}
