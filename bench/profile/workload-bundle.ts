/**
 * The workload as one plain JavaScript file, for clinic.
 *
 * Run through `--import tsx`, a Node 20 process has a second thread: the
 * module-loader hooks run in their own worker. clinic injects its samplers
 * with `NODE_OPTIONS=-r …`, which that worker loads too, so clinic doctor's
 * sampler runs on both threads and writes both into one data file — by hand,
 * nearly all of a run's samples came from the idle loader thread and the
 * chart showed its small heap and calm event loop, not the workload's. (clinic
 * flame, collecting with 0x, meets the same two threads.) A bundle needs no
 * loader, so the process has one thread and clinic sees the workload.
 *
 * 0x and `--cpu-prof` keep running the TypeScript through tsx: there the
 * two threads' outputs are separate files and the right one is chosen.
 */
import { build } from 'esbuild';
import path from 'node:path';
import { WORKLOAD_SCRIPT } from './workload-invocation.js';

/** File name of the bundle: clinic flame's samples are checked for it. */
export const WORKLOAD_BUNDLE_NAME = 'profile-workload.bundle.mjs';

/**
 * Bundles `scripts/profile-workload.ts` and everything it imports into
 * `<outDir>/profile-workload.bundle.mjs`. Nothing stays external, so the file
 * runs from any directory; `require` is provided for bundled CommonJS code.
 */
export async function bundleWorkload(repoRoot: string, outDir: string): Promise<string> {
  const outfile = path.join(outDir, WORKLOAD_BUNDLE_NAME);
  await build({
    absWorkingDir: repoRoot,
    entryPoints: [WORKLOAD_SCRIPT],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: `node${process.versions.node.split('.')[0]}`,
    tsconfig: path.join(repoRoot, 'tsconfig.json'),
    banner: {
      js:
        "import { createRequire as __costlabCreateRequire } from 'node:module'; const require = " +
        '__costlabCreateRequire(import.meta.url);',
    },
    logLevel: 'silent',
  });
  return outfile;
}
