/**
 * The repository's import graph, read with the TypeScript compiler's own
 * pre-processor (static imports, re-exports, `import type` and dynamic
 * `import()` alike), and the two rules the layout stands for
 * (docs/adr/0008-one-way-layers.md): no import from a lower layer to a higher
 * one, and no cycle anywhere.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** The layers, lowest first; a file may import its own layer and the layers below it. */
export const LAYERS: readonly (readonly string[])[] = [
  ['src/kernel', 'src/package'],
  ['src/mcp'],
  ['src/world'],
  ['src/conformance'],
  ['bench'],
  ['cli', 'scripts', 'bin'],
];

export interface ImportEdge {
  readonly from: string;
  readonly to: string;
}

export interface ImportGraph {
  /** Repository-relative paths, `/`-separated. */
  readonly files: readonly string[];
  readonly edges: readonly ImportEdge[];
}

const SOURCE = /\.(ts|mts|mjs)$/;

function sourceFiles(root: string, dir: string): string[] {
  const absolute = path.join(root, dir);
  if (!existsSync(absolute)) return [];
  const found: string[] = [];
  for (const name of readdirSync(absolute)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const child = path.posix.join(dir, name);
    if (statSync(path.join(root, child)).isDirectory()) found.push(...sourceFiles(root, child));
    else if (SOURCE.test(name) && !name.endsWith('.d.ts')) found.push(child);
  }
  return found;
}

/** `./x.js` names `./x.ts` on disk (NodeNext resolution); a bare specifier is a package and not part of the graph. */
export function resolveImport(root: string, from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const target = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  const candidates = [
    target,
    target.replace(/\.js$/, '.ts'),
    target.replace(/\.mjs$/, '.mts'),
    `${target}.ts`,
    path.posix.join(target, 'index.ts'),
  ];
  return candidates.find(
    (candidate) => existsSync(path.join(root, candidate)) && statSync(path.join(root, candidate)).isFile(),
  );
}

/** Every relative import among the source files under `dirs`. */
export function readImportGraph(root: string, dirs: readonly string[]): ImportGraph {
  const files = dirs.flatMap((dir) => sourceFiles(root, dir)).sort();
  const edges: ImportEdge[] = [];
  for (const from of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(path.join(root, from), 'utf8'), true, true);
    for (const { fileName } of importedFiles) {
      const to = resolveImport(root, from, fileName);
      if (to !== undefined && to !== from) edges.push({ from, to });
    }
  }
  return { files, edges };
}

/** The index of the layer a file belongs to, or undefined for files outside every layer (tests). */
export function layerOf(file: string, layers: readonly (readonly string[])[] = LAYERS): number | undefined {
  const index = layers.findIndex((dirs) => dirs.some((dir) => file === dir || file.startsWith(`${dir}/`)));
  return index < 0 ? undefined : index;
}

/** Edges that point from a lower layer to a higher one. */
export function upwardImports(graph: ImportGraph, layers: readonly (readonly string[])[] = LAYERS): ImportEdge[] {
  return graph.edges.filter((edge) => {
    const from = layerOf(edge.from, layers);
    const to = layerOf(edge.to, layers);
    return from !== undefined && to !== undefined && to > from;
  });
}

/** The import cycles: strongly connected components of more than one file (Tarjan), each sorted. */
export function importCycles(graph: ImportGraph): string[][] {
  const next = new Map<string, string[]>(graph.files.map((file) => [file, []]));
  for (const edge of graph.edges) next.get(edge.from)?.push(edge.to);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let counter = 0;
  const visit = (file: string): void => {
    index.set(file, counter);
    low.set(file, counter);
    counter++;
    stack.push(file);
    onStack.add(file);
    for (const to of next.get(file) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(file, Math.min(low.get(file)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(file, Math.min(low.get(file)!, index.get(to)!));
      }
    }
    if (low.get(file) === index.get(file)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      if (component.length > 1) cycles.push(component.sort());
    }
  };
  for (const file of graph.files) if (!index.has(file)) visit(file);
  return cycles;
}
