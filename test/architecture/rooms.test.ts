/**
 * The bench's rooms hold (docs/adr/0060-bench-rooms.md): src reached through
 * its faces, bench reached from the command line through each room's face,
 * and the gate's probes cut off from every measuring and writing room.
 * Checked on the repository's graph, and on the same graph with one bad
 * import planted in it, so each rule is seen to fail.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readImportGraph } from './import-graph.js';
import type { ImportEdge, ImportGraph } from './import-graph.js';
import { SRC_FACES, deepBenchImportsFromCli, deepSrcImports, leafViolations, probeReachViolations } from './rooms.js';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const graph = readImportGraph(REPO_ROOT, ['src', 'bench', 'cli', 'scripts', 'bin']);

const planted = (...edges: ImportEdge[]): ImportGraph => ({ files: graph.files, edges: [...graph.edges, ...edges] });

describe('the rooms of the repository', () => {
  it('reads a graph that has each rule’s subjects in it', () => {
    for (const face of SRC_FACES) expect(existsSync(path.join(REPO_ROOT, face)), face).toBe(true);
    expect(
      graph.edges.some((edge) => edge.from === 'bench/probes/probe.ts' && edge.to === 'bench/probes/probe-units.ts'),
    ).toBe(true);
    expect(graph.edges.some((edge) => edge.from.startsWith('cli/') && edge.to === 'bench/gate/index.ts')).toBe(true);
    expect(graph.edges.some((edge) => edge.from.startsWith('bench/') && edge.to === 'src/world/index.ts')).toBe(true);
  });

  it('reaches src only through its faces from bench, cli and scripts', () => {
    expect(deepSrcImports(graph)).toEqual([]);
  });

  it('reaches a bench room from the command line only through the room’s face', () => {
    expect(deepBenchImportsFromCli(graph)).toEqual([]);
  });

  it('keeps the probes to src’s faces, the world builders and their own room', () => {
    expect(probeReachViolations(graph)).toEqual([]);
    expect(leafViolations(graph)).toEqual([]);
  });
});

describe('each rule, with a bad import planted in the real graph', () => {
  it('finds a deep import into src', () => {
    const bad = { from: 'bench/staircase/run-strategies.ts', to: 'src/kernel/kernel.ts' };
    expect(deepSrcImports(planted(bad))).toEqual(['bench/staircase/run-strategies.ts → src/kernel/kernel.ts']);
    expect(deepSrcImports(planted({ from: 'scripts/gate-power.ts', to: 'src/mcp/tool-server.ts' }))).toEqual([
      'scripts/gate-power.ts → src/mcp/tool-server.ts',
    ]);
  });

  it('finds the command line importing a bench file past its room’s face', () => {
    expect(deepBenchImportsFromCli(planted({ from: 'cli/commands/gate.ts', to: 'bench/gate/lanes.ts' }))).toEqual([
      'cli/commands/gate.ts → bench/gate/lanes.ts',
    ]);
  });

  it('finds a probe importing the harness, directly or through a world builder', () => {
    expect(probeReachViolations(planted({ from: 'bench/probes/probe.ts', to: 'bench/harness/run-bench.ts' }))).toEqual([
      'bench/probes/probe.ts → bench/harness/run-bench.ts',
    ]);
    expect(
      probeReachViolations(planted({ from: 'bench/world/workload.ts', to: 'bench/staircase/segments.ts' })),
    ).toEqual(['bench/world/workload.ts → bench/staircase/segments.ts']);
    expect(
      probeReachViolations(planted({ from: 'bench/probes/call-segments.ts', to: 'bench/format/number-format.ts' })),
    ).toEqual(['bench/probes/call-segments.ts → bench/format/number-format.ts']);
  });

  it('finds the statistics leaf growing an import', () => {
    expect(
      leafViolations(planted({ from: 'bench/statistics/sample-statistics.ts', to: 'bench/gate/bootstrap.ts' })),
    ).toEqual(['bench/statistics/sample-statistics.ts → bench/gate/bootstrap.ts']);
  });
});
