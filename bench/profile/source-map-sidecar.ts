/**
 * tsx runs TypeScript through esbuild with `minifyWhitespace`, so V8 sees
 * every module as one line and a profile's positions read `file.ts:1:1420`.
 * The process that loaded the modules holds their source maps (tsx turns
 * Node's source-map support on), so the profiled workload writes them beside
 * its profile — a sidecar — and the analysis maps each frame back to the
 * TypeScript line with Node's own `SourceMap`. Mapping in the loading
 * process, rather than re-transpiling later, guarantees the map belongs to
 * exactly the code that was sampled.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { SourceMap, findSourceMap } from 'node:module';
import type { SourceMapPayload } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** Module URL → its source map, as the loading process held it. */
export type SourceMapSidecar = Record<string, SourceMapPayload>;

/** A 0-based generated position → 0-based original line and column, or undefined where the map says nothing. */
export type PositionMapper = (
  url: string,
  line: number,
  column: number,
) => { readonly line: number; readonly column: number } | undefined;

const SOURCE_EXTENSIONS = new Set(['.ts', '.mts', '.cts', '.tsx']);

async function sourceFiles(dir: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const found: string[] = [];
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== 'node_modules') found.push(...(await sourceFiles(full)));
    else if (entry.isFile() && SOURCE_EXTENSIONS.has(path.extname(entry.name))) found.push(full);
  }
  return found;
}

/** The maps this process holds for the TypeScript modules under `roots` that it loaded. */
async function collectSourceMaps(roots: readonly string[]): Promise<SourceMapSidecar> {
  const sidecar: SourceMapSidecar = {};
  for (const root of roots) {
    for (const file of await sourceFiles(root)) {
      const url = pathToFileURL(file).href;
      const map = findSourceMap(url) ?? findSourceMap(file);
      if (map !== undefined) sidecar[url] = map.payload;
    }
  }
  return sidecar;
}

export async function writeSourceMapSidecar(file: string, roots: readonly string[]): Promise<number> {
  const sidecar = await collectSourceMaps(roots);
  await writeFile(file, `${JSON.stringify(sidecar)}\n`);
  return Object.keys(sidecar).length;
}

export function positionMapper(sidecar: SourceMapSidecar): PositionMapper {
  const maps = new Map<string, SourceMap>();
  return (url, line, column) => {
    const payload = sidecar[url];
    if (payload === undefined || line < 0) return undefined;
    let map = maps.get(url);
    if (map === undefined) {
      map = new SourceMap(payload);
      maps.set(url, map);
    }
    const entry = map.findEntry(line, column) as Partial<{ originalLine: number; originalColumn: number }>;
    if (typeof entry.originalLine !== 'number' || typeof entry.originalColumn !== 'number') return undefined;
    return { line: entry.originalLine, column: entry.originalColumn };
  };
}

export async function readSourceMapSidecar(file: string): Promise<SourceMapSidecar> {
  return JSON.parse(await readFile(file, 'utf8')) as SourceMapSidecar;
}

/** For profiles with no sidecar: positions are reported as V8 gave them. */
export const identityPositions: PositionMapper = () => undefined;
