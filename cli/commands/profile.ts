import path from 'node:path';
import { PACKAGE_ROOT } from '../../src/package/index.js';
import { oneOf, positiveInteger } from '../../bench/command-line/index.js';
import { DEFAULT_TOP_FRAMES } from '../../bench/profile/index.js';
import { PROFILE_DEFAULTS } from '../../bench/profile/index.js';
import { runProfile } from '../../bench/profile/index.js';
import { CATALOGUE_STRATEGIES } from '../../src/kernel/index.js';
import type { CatalogueStrategyName } from '../../src/kernel/index.js';
import { defineCommand } from '../command.js';
import { describeThrownWithName } from '../../src/kernel/index.js';
import { addTargetOptions, wantsTarget } from '../target/target-options.js';
import type { TargetFlags } from '../target/target-options.js';
import { formatSeconds } from '../../bench/format/index.js';

const repoRoot = PACKAGE_ROOT;

interface ProfileFlags extends TargetFlags {
  readonly strategy: CatalogueStrategyName | 'all';
  readonly turns: number;
  readonly concurrent: number;
  readonly clinic: boolean;
  readonly out: string;
  readonly top: number;
}

/**
 * Flame graphs (0x), CPU profiles and clinic reports of the reference
 * workload per catalogue strategy, under `profiles/<commit>/`, with a summary
 * of the top self-time frames (SPEC §6).
 */
export const command = defineCommand<ProfileFlags>({
  define(command) {
    command
      .description(
        'Profiles the reference workload per catalogue strategy (0x flame graphs, --cpu-prof, clinic) and ' +
          'summarises the top self-time frames.',
      )
      .option(
        '--strategy <s>',
        'which catalogue strategy to profile',
        oneOf<CatalogueStrategyName | 'all'>([...CATALOGUE_STRATEGIES, 'all']),
        'all',
      )
      .option('--turns <n>', 'turns of the reference world per run', positiveInteger, PROFILE_DEFAULTS.turns)
      .option('--concurrent <k>', 'turns in flight at once under clinic', positiveInteger, PROFILE_DEFAULTS.concurrent)
      .option('--no-clinic', 'skip clinic doctor and clinic flame (the slow part)')
      .option('--out <dir>', 'directory that receives <commit>/', PROFILE_DEFAULTS.outDir)
      .option('--top <n>', 'frames listed per strategy', positiveInteger, DEFAULT_TOP_FRAMES);
    // --target: --turns is the rounds of the call mix; the flame graph goes to <out>/target/flamegraph.html. --json
    // prints
    // the summary (or, with --target, what was written) as JSON instead of the lines.
    addTargetOptions(command, { world: false, calls: false });
  },
  async run(values) {
    if (wantsTarget(values)) return (await import('../target/profile-target.js')).runProfileTarget(values);
    const options = {
      strategies: values.strategy === 'all' ? CATALOGUE_STRATEGIES : [values.strategy],
      turns: values.turns,
      concurrent: values.concurrent,
      clinic: values.clinic,
      outDir: values.out,
      topN: values.top,
    };
    const started = performance.now();
    try {
      const run = await runProfile(options, { repoRoot });
      if (values.json === true) {
        process.stdout.write(`${JSON.stringify(run.summary, null, 2)}\n`);
        return 0;
      }
      process.stdout.write(
        `wrote ${path.relative(process.cwd(), run.summaryFile) || run.summaryFile} ` +
          `in ${formatSeconds(performance.now() - started)}\n`,
      );
      for (const profile of run.summary.strategies) {
        const { verdict } = profile.analysis;
        process.stdout.write(`  ${profile.strategy.padEnd(8)} ${verdict.kind.padEnd(8)} ${verdict.statement}\n`);
      }
      return 0;
    } catch (error) {
      process.stderr.write(`costlab profile: ${describeThrownWithName(error)}\n`);
      return 1;
    }
  },
});
