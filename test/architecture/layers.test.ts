/**
 * The layout is the architecture: src/kernel < src/mcp < src/world <
 * src/conformance < bench < cli and scripts (docs/adr/0008-one-way-layers.md).
 * Checked on the repository's real import graph, and shown able to fail on a
 * small graph with an upward import and a cycle planted in it.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAYERS, importCycles, layerOf, readImportGraph, upwardImports } from './import-graph.js';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('the repository import graph', () => {
  const graph = readImportGraph(REPO_ROOT, ['src', 'bench', 'cli', 'scripts', 'bin', 'test']);

  it('reads the graph: every layer has files and imports', () => {
    for (const dirs of LAYERS)
      expect(graph.files.some((file) => dirs.some((dir) => file.startsWith(`${dir}/`)))).toBe(true);
    expect(graph.edges.some((edge) => edge.from === 'cli/commands/serve.ts' && edge.to === 'src/kernel/index.ts')).toBe(
      true,
    );
    // bin runs the built command line (docs/adr/0048-built-package.md); dist/ is outside every layer and not read.
    expect(graph.edges.some((edge) => edge.from === 'bin/costlab.mjs' && edge.to === 'dist/cli/main.js')).toBe(true);
    expect(graph.files.some((file) => file.startsWith('dist/'))).toBe(false);
    // Dynamic imports are edges too: main loads each command only when it runs.
    expect(graph.edges.some((edge) => edge.from === 'cli/main.ts' && edge.to === 'cli/commands/serve.ts')).toBe(true);
  });

  it('has no import from a lower layer to a higher one', () => {
    expect(upwardImports(graph).map((edge) => `${edge.from} → ${edge.to}`)).toEqual([]);
  });

  it('has no import cycle, tests included', () => {
    expect(importCycles(graph)).toEqual([]);
  });

  it('places each source folder in one layer, tests in none', () => {
    expect(layerOf('src/kernel/kernel.ts')).toBe(0);
    expect(layerOf('src/world/reference-world.ts')).toBe(2);
    expect(layerOf('bench/results/results-schema.ts')).toBe(4);
    expect(layerOf('cli/main.ts')).toBe(layerOf('scripts/gate-power.ts'));
    expect(layerOf('test/cli/command-line.test.ts')).toBeUndefined();
  });
});

describe('the check itself', () => {
  let root: string;

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'costlab-layers-'));
    const files: Record<string, string> = {
      'src/kernel/kernel.ts': "import { served } from '../mcp/server.js';\nexport const kernel = served;\n",
      'src/mcp/server.ts':
        "import type { Kernel } from '../kernel/types.js';\nexport const served = 1;\nexport type { Kernel };\n",
      'src/kernel/types.ts': 'export type Kernel = { id: string };\n',
      'bench/a.ts': "export { b } from './b.js';\nexport const a = 1;\n",
      'bench/b.ts': "export const b = async () => (await import('./a.js')).a;\n",
      'cli/main.ts': "import { a } from '../bench/a.js';\nimport { z } from 'zod';\nexport { a, z };\n",
    };
    for (const [file, text] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(root, file)), { recursive: true });
      await writeFile(path.join(root, file), text);
    }
  });

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('finds a planted upward import, and only that one', () => {
    const graph = readImportGraph(root, ['src', 'bench', 'cli']);
    expect(upwardImports(graph)).toEqual([{ from: 'src/kernel/kernel.ts', to: 'src/mcp/server.ts' }]);
  });

  it('finds a planted cycle through a re-export and a dynamic import', () => {
    const graph = readImportGraph(root, ['src', 'bench', 'cli']);
    expect(importCycles(graph)).toEqual([['bench/a.ts', 'bench/b.ts']]);
  });
});
