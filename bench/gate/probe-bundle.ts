/**
 * The gate's probe as one plain ES module. Under callgrind every instruction
 * of start-up is counted twice (the N and the 0 run) and then cancelled, but
 * not waited for: through the tsx loader a probe run took ~19 s here, bundled
 * ~5 s. Packages stay external and resolve from the checkout's own
 * node_modules, so each commit is measured with its own lockfile.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { GateError } from './gate-error.js';
import { describeThrown } from '../../src/kernel/index.js';

/** Where a checkout keeps its bundled probe (git-ignored). */
export const PROBE_BUNDLE = join('.cache', 'gate', 'probe.mjs');
export const PROBE_SOURCE = join('bench', 'probes', 'probe.ts');

export class ProbeMissing extends GateError {
  readonly code = 'ProbeMissing';
}

/** Bundles `<root>/bench/probes/probe.ts` to `<root>/.cache/gate/probe.mjs`; returns the bundle's path. */
export async function bundleProbe(root: string): Promise<string> {
  const outfile = join(root, PROBE_BUNDLE);
  await mkdir(join(root, '.cache', 'gate'), { recursive: true });
  try {
    // Loaded here, not at the top: esbuild is a checkout's development tool, and the gate's --target path (an installed copy's) never bundles.
    const { build } = await import('esbuild');
    await build({
      entryPoints: [join(root, PROBE_SOURCE)],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      logLevel: 'silent',
    });
  } catch (error) {
    throw new ProbeMissing(`cannot bundle ${PROBE_SOURCE} in ${root}: ${describeThrown(error).split('\n')[0]}`);
  }
  return outfile;
}
