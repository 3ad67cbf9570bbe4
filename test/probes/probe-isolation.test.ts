/**
 * The gate counts the instructions of the bundle esbuild makes of the probe
 * (bench/gate/probe-bundle.ts), so that bundle's text must move with the
 * probe's own work and nothing else. Here an edit esbuild cannot shake out (a
 * function added to a module and called at its top) leaves the bundle
 * byte-identical when it lands in the staircase's segments module, which the
 * probe no longer imports, and changes it when it lands in a probes module (so
 * the check can tell). An unused function alone was already shaken out before
 * the rooms: the bundles of 1a97c54 (callStats added to the harness's
 * segments module) and of its parent are the same bytes.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Plugin } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { PROBE_SOURCE, probeBuildOptions } from '../../bench/gate/probe-bundle.js';
import { PROBE_ROOM_MAY_IMPORT } from '../architecture/rooms.js';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** A function added to a module and called at its top level, which no tree-shaking may drop. */
const ADDED =
  '\nexport function addedBesideTheMeasure(): number {\n  return ' +
  'globalThis.performance.now();\n}\naddedBesideTheMeasure();\n';

/** Serves `file` with ADDED appended, as an edit on disk would. */
function editing(file: string): Plugin {
  const absolute = path.join(REPO_ROOT, file);
  return {
    name: 'edit-one-module',
    setup(builder) {
      builder.onLoad({ filter: /\.ts$/ }, async (args) => {
        if (args.path !== absolute) return undefined;
        return {
          contents: (await readFile(args.path, 'utf8')) + ADDED,
          loader: 'ts',
          resolveDir: path.dirname(args.path),
        };
      });
    },
  };
}

async function bundle(plugins: Plugin[] = []): Promise<{ sha256: string; inputs: string[] }> {
  const result = await build({
    ...probeBuildOptions(REPO_ROOT, PROBE_SOURCE),
    outfile: 'probe.mjs',
    write: false,
    metafile: true,
    plugins,
  });
  return {
    sha256: createHash('sha256').update(result.outputFiles[0]!.contents).digest('hex'),
    inputs: Object.keys(result.metafile.inputs).sort(),
  };
}

describe('the probe bundle', () => {
  it('is built only from src and the files the probes room may import', async () => {
    const { inputs } = await bundle();
    expect(inputs).toContain('bench/probes/probe.ts');
    expect(
      inputs.filter(
        (file) =>
          !file.startsWith('src/') &&
          !PROBE_ROOM_MAY_IMPORT.some((allowed) => file === allowed || file.startsWith(`${allowed}/`)),
      ),
    ).toEqual([]);
  });

  it(
    'stays byte-identical when a function is added to the staircase’s ' +
      'segments module, and changes when one is added to the probe’s',
    async () => {
      const before = await bundle();
      const staircaseEdited = await bundle([editing('bench/staircase/segments.ts')]);
      const probeEdited = await bundle([editing('bench/probes/call-segments.ts')]);
      expect(staircaseEdited.sha256).toBe(before.sha256);
      expect(probeEdited.sha256).not.toBe(before.sha256);
    },
  );
});
