/**
 * Which probe the gate bundles in a checkout: the probes room's, or, in a
 * checkout of a commit from before the rooms (docs/adr/0060-bench-rooms.md),
 * the harness's. `costlab compare` and the gate build such commits as their
 * base, so both paths must bundle.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  LEGACY_PROBE_SOURCE,
  PROBE_BUNDLE,
  PROBE_SOURCE,
  ProbeMissing,
  bundleProbe,
  probeSource,
} from '../../bench/gate/probe-bundle.js';

const roots: string[] = [];

async function checkout(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'costlab-probe-bundle-'));
  roots.push(root);
  for (const [file, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, file)), { recursive: true });
    await writeFile(join(root, file), text);
  }
  return root;
}

afterEach(async () => {
  await Promise.all(roots.splice(0).map((root) => rm(root, { recursive: true, force: true })));
});

describe('the probe a checkout holds', () => {
  it('is the probes room’s when the checkout has one, even beside an old harness probe', async () => {
    const root = await checkout({ [PROBE_SOURCE]: 'export {};\n', [LEGACY_PROBE_SOURCE]: 'export {};\n' });
    expect(probeSource(root)).toBe(PROBE_SOURCE);
  });

  it('is the harness’s in a checkout from before the rooms', async () => {
    const root = await checkout({ [LEGACY_PROBE_SOURCE]: 'export {};\n' });
    expect(probeSource(root)).toBe(LEGACY_PROBE_SOURCE);
  });

  it('is refused by name when the checkout has neither', async () => {
    const root = await checkout({ 'bench/other.ts': 'export {};\n' });
    expect(() => probeSource(root)).toThrow(ProbeMissing);
    expect(() => probeSource(root)).toThrow(/bench\/probes\/probe\.ts.*bench\/harness\/probe\.ts/);
  });

  it('bundles an old checkout’s harness probe, with the module it imports', async () => {
    const root = await checkout({
      [LEGACY_PROBE_SOURCE]: "import { marker } from './segments.js';\nprocess.stdout.write(marker);\n",
      'bench/harness/segments.ts': "export const marker: string = 'old-layout-probe';\n",
    });
    const bundle = await bundleProbe(root);
    expect(bundle).toBe(join(root, PROBE_BUNDLE));
    expect(existsSync(bundle)).toBe(true);
    expect(await readFile(bundle, 'utf8')).toContain('old-layout-probe');
  });

  it('loads the same text wherever the checkout lies and whatever directory bundles it', async () => {
    const files = {
      [PROBE_SOURCE]: "import { marker } from './units.js';\nprocess.stdout.write(marker);\n",
      'bench/probes/units.ts': "export const marker: string = 'same-text';\n",
    };
    const home = await checkout(files);
    const deeper = await checkout({});
    const elsewhere = join(deeper, 'another', 'checkout-path');
    for (const [file, text] of Object.entries(files)) {
      await mkdir(dirname(join(elsewhere, file)), { recursive: true });
      await writeFile(join(elsewhere, file), text);
    }
    // The process's working directory is neither checkout (vitest runs from the repository's root).
    const texts = await Promise.all([home, elsewhere].map(async (root) => readFile(await bundleProbe(root), 'utf8')));
    expect(texts[0]).toContain('// bench/probes/units.ts');
    expect(texts[1]).toBe(texts[0]);
  });
});
