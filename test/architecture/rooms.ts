/**
 * The rules of the bench's rooms (docs/adr/0060-bench-rooms.md), as functions
 * of an import graph so each can be shown failing on a planted one:
 *
 * - faces only: bench/, cli/ and scripts/ import src through its faces;
 * - the command line imports a bench room only through the room's face
 *   (`bench/<room>/index.ts`);
 * - the probes the gate bundles and counts import src's faces, the world
 *   builders and their own room, and nothing else: what the probe bundle holds
 *   is then the probe's own work, so an edit to a measuring or writing room
 *   cannot move a gate lane.
 */
import type { ImportEdge, ImportGraph } from './import-graph.js';

/** The files through which anything outside src reaches it. */
export const SRC_FACES: readonly string[] = [
  'src/kernel/index.ts',
  'src/kernel/internals.ts',
  'src/mcp/index.ts',
  'src/world/index.ts',
  'src/conformance/index.ts',
  'src/package/index.ts',
];

/** The folders whose imports of src must land on a face. */
export const FACE_ONLY_IMPORTERS: readonly string[] = ['bench', 'cli', 'scripts'];

export const PROBES_ROOM = 'bench/probes';

/**
 * What the probes room may import besides src's faces and its own files. The
 * statistics module is a leaf of arithmetic (the nearest-rank median the
 * timed probe prints is the one the reports print); it must stay a leaf
 * (`leafViolations`), so the probe's graph cannot grow through it.
 */
export const PROBE_ROOM_MAY_IMPORT: readonly string[] = [
  PROBES_ROOM,
  'bench/world',
  'bench/statistics/sample-statistics.ts',
];
export const PROBE_LEAVES: readonly string[] = ['bench/statistics/sample-statistics.ts'];

const under = (file: string, dirs: readonly string[]): boolean =>
  dirs.some((dir) => file === dir || file.startsWith(`${dir}/`));

const show = (edge: ImportEdge): string => `${edge.from} → ${edge.to}`;

/** Imports from bench, cli or scripts into a file of src that is not a face. */
export function deepSrcImports(graph: ImportGraph): string[] {
  return graph.edges
    .filter(
      (edge) => under(edge.from, FACE_ONLY_IMPORTERS) && edge.to.startsWith('src/') && !SRC_FACES.includes(edge.to),
    )
    .map(show);
}

/** Imports from cli into a bench file that is not its room's face. */
export function deepBenchImportsFromCli(graph: ImportGraph): string[] {
  return graph.edges
    .filter(
      (edge) =>
        edge.from.startsWith('cli/') && edge.to.startsWith('bench/') && !/^bench\/[^/]+\/index\.ts$/.test(edge.to),
    )
    .map(show);
}

/**
 * Files the probes reach, directly or through the world builders, that are
 * neither src nor allowed: an import from the probes room or a world builder
 * into harness, staircase, report, cli or anything else.
 */
export function probeReachViolations(graph: ImportGraph): string[] {
  const next = new Map<string, ImportEdge[]>();
  for (const edge of graph.edges) next.set(edge.from, [...(next.get(edge.from) ?? []), edge]);
  const violations: string[] = [];
  const seen = new Set<string>();
  const stack = graph.files.filter((file) => under(file, [PROBES_ROOM]));
  while (stack.length > 0) {
    const file = stack.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const edge of next.get(file) ?? []) {
      if (edge.to.startsWith('src/')) continue;
      if (under(edge.to, PROBE_ROOM_MAY_IMPORT)) stack.push(edge.to);
      else violations.push(show(edge));
    }
  }
  return violations;
}

/** Imports out of a file that must stay a leaf. */
export function leafViolations(graph: ImportGraph, leaves: readonly string[] = PROBE_LEAVES): string[] {
  return graph.edges.filter((edge) => leaves.includes(edge.from)).map(show);
}
