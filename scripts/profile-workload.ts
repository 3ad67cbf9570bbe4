/**
 * The workload `costlab profile` hands to 0x, `node --cpu-prof` and clinic.
 * Those tools wrap `node`, so run it through tsx's loader:
 *
 *   node --import tsx scripts/profile-workload.ts --strategy rederive --turns 200
 *   node --import tsx scripts/profile-workload.ts --strategy turn --turns 400 --concurrent 8
 *   0x -- node --import tsx scripts/profile-workload.ts --strategy shared
 *   clinic doctor --dest DIR -- node --import tsx scripts/profile-workload.ts --concurrent 8
 *
 * It prints one line on stderr when done (turns, calls, elapsed), so a
 * wrapped run shows it did the work, and exits non-zero if any call's
 * outcome differs from what the workload declares. With `--source-maps FILE`
 * it then writes the source maps of the modules it loaded, so frames of its
 * profile can be mapped back to TypeScript lines.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  WORKLOAD_USAGE,
  WorkloadUsageError,
  parseWorkloadArgs,
  runProfileWorkload,
} from '../bench/profile/profile-workload.js';
import { writeSourceMapSidecar } from '../bench/profile/source-map-sidecar.js';
import { describeThrownWithName } from '../src/kernel/index.js';
import { formatMillis } from '../bench/format/index.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

try {
  const options = parseWorkloadArgs(process.argv.slice(2));
  const report = await runProfileWorkload(options);
  process.stderr.write(
    `profile-workload: ${report.strategy}: ${report.turns} turns (${report.concurrent} ` +
      `at a time), ${report.calls} calls in ${formatMillis(report.elapsedMs)}\n`,
  );
  if (options.sourceMaps !== undefined) {
    await writeSourceMapSidecar(
      options.sourceMaps,
      ['src', 'bench', 'scripts'].map((dir) => path.join(repoRoot, dir)),
    );
  }
} catch (error) {
  const usage =
    error instanceof WorkloadUsageError ||
    (error instanceof Error && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'));
  process.stderr.write(`profile-workload: ${describeThrownWithName(error)}\n${usage ? `${WORKLOAD_USAGE}\n` : ''}`);
  process.exitCode = usage ? 2 : 1;
}
