import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PROFILE_USAGE, ProfileUsageError, parseProfileArgs } from '../../bench/profile/profile-options.js';
import { runProfile } from '../../bench/profile/run-profile.js';
import type { Command } from '../main.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Flame graphs (0x), CPU profiles and clinic reports of the reference
 * workload per catalogue strategy, under `profiles/<commit>/`, with a summary
 * of the top self-time frames (SPEC §6).
 */
export const command: Command = {
  summary: 'profile the reference workload per strategy (0x, --cpu-prof, clinic) into profiles/<commit>/',
  async run(argv) {
    let options;
    try {
      options = parseProfileArgs(argv);
    } catch (error) {
      if (!(error instanceof ProfileUsageError)) throw error;
      process.stderr.write(`costlab profile: ${error.message}\n${PROFILE_USAGE}\n`);
      return 2;
    }
    if (options.help) {
      process.stdout.write(`${PROFILE_USAGE}\n`);
      return 0;
    }
    const started = performance.now();
    try {
      const run = await runProfile(options, { repoRoot });
      process.stdout.write(`wrote ${path.relative(process.cwd(), run.summaryFile) || run.summaryFile} in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
      for (const profile of run.summary.strategies) process.stdout.write(`  ${profile.strategy.padEnd(8)} ${profile.analysis.verdict.kind.padEnd(8)} ${profile.analysis.verdict.statement}\n`);
      return 0;
    } catch (error) {
      const named = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      process.stderr.write(`costlab profile: ${named}\n`);
      return 1;
    }
  },
};
