/**
 * `costlab map`: the two step ratios over a grid of the two quantities that
 * set them (ADR 0045). Each point is a world shaped like the publisher's but
 * for its provider tools and grants, run under the three strategies, turns
 * interleaved, exactly as the bench runs a world; the two worlds are measured
 * as points of their own. Nothing is written until every point is measured
 * and the whole validates, and each file is written beside its final name
 * then renamed, so a run that fails part-way leaves no partial results.
 */
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { STRATEGY_NAMES } from '../results/results-schema.js';
import type { AnchorFigures, StrategyName } from '../results/results-schema.js';
import { MAP_SCHEMA_VERSION, parseMapResults } from '../results/map-schema.js';
import type { MapPoint, MapResults } from '../results/map-schema.js';
import { loadAverage, readEnvironment, readProvenance } from '../results/environment.js';
import { Progress } from '../progress/index.js';
import { staircaseOf } from '../results/write-results.js';
import { runWorldStaircases } from '../staircase/run-strategies.js';
import type { StrategyMeasurement } from '../staircase/run-strategies.js';
import { resultsFileName } from '../results/run-context.js';
import { buildShapedKernel, parseWorldShape, PUBLISHER_SHAPE, REFERENCE_SHAPE } from '../world/publisher-world.js';
import type { WorldShape } from '../world/publisher-world.js';
import { FULL_GRID, FULL_MAP_TURNS, MAP_STATIC_TOOLS, QUICK_GRID, QUICK_MAP_TURNS } from './map-plan.js';
import type { MapGrid } from './map-plan.js';
import { renderMapMarkdown } from '../markdown/map-markdown.js';

export interface RunMapOptions {
  readonly quick: boolean;
  readonly grid?: MapGrid;
  readonly outDir: string;
  readonly repoRoot: string;
  readonly command: string;
  readonly anchors: AnchorFigures;
  readonly progress?: Progress;
}

/** The publisher-shaped world with this point's provider tools and grants; the 18 static tools stay. */
function gridShape(providerTools: number, grants: number): WorldShape {
  return parseWorldShape({
    ...PUBLISHER_SHAPE,
    name: `p${providerTools}-g${grants}`,
    tools: MAP_STATIC_TOOLS + providerTools,
    providerTools,
    grants,
  });
}

function pointOf(shape: WorldShape, measured: Readonly<Record<StrategyName, StrategyMeasurement>>): MapPoint {
  const strategies = {} as MapPoint['strategies'];
  for (const name of STRATEGY_NAMES) {
    const f = measured[name].figures;
    strategies[name] = {
      callP50Us: f.call.p50Us,
      catalogueP50Us: f.segments.catalogue.p50Us,
      catalogueShare: f.segments.catalogue.share,
      authorizeP50Us: f.segments.authorize.p50Us,
    };
  }
  return { shape: { ...shape }, strategies, staircase: staircaseOf(measured) };
}

async function measurePoint(shape: WorldShape, turns: { warmup: number; measured: number }): Promise<MapPoint> {
  const runs = await runWorldStaircases({
    worlds: [
      {
        name: shape.name,
        build: (strategy, spans) => buildShapedKernel(strategy, shape, spans),
        warmupTurns: turns.warmup,
        measuredTurns: turns.measured,
      },
    ],
  });
  return pointOf(shape, runs[shape.name]!);
}

export interface MapOutcome {
  readonly results: MapResults;
  readonly files: readonly string[];
}

export async function runMap(options: RunMapOptions): Promise<MapOutcome> {
  const grid = options.grid ?? (options.quick ? QUICK_GRID : FULL_GRID);
  const turns = options.quick ? QUICK_MAP_TURNS : FULL_MAP_TURNS;
  // Every point's shape is built (and so checked) before the first is measured.
  const shapes = grid.grants.flatMap((grants) =>
    grid.providerTools.map((providerTools) => gridShape(providerTools, grants)),
  );
  const progress = options.progress ?? new Progress();
  const provenance = readProvenance(options.repoRoot);
  const environment = readEnvironment(options.repoRoot);
  const loadAtStart = loadAverage();
  const createdAt = new Date();
  progress.phase('map');
  const total = shapes.length + 2;
  const publisher = await measurePoint(PUBLISHER_SHAPE, turns);
  progress.update(1, total, 'publisher-shaped world');
  const points: MapPoint[] = [];
  for (const shape of shapes) {
    points.push(await measurePoint(shape, turns));
    progress.update(points.length + 1, total, shape.name);
  }
  const reference = await measurePoint(REFERENCE_SHAPE, turns);
  progress.update(total, total, 'reference world');
  progress.done();
  const results = parseMapResults({
    schemaVersion: MAP_SCHEMA_VERSION,
    commit: provenance.commit,
    dirty: provenance.dirty,
    createdAt: createdAt.toISOString(),
    command: options.command,
    environment,
    loadAverage: { start: loadAtStart, end: loadAverage() },
    quick: options.quick,
    turns,
    axes: { providerTools: [...grid.providerTools], grants: [...grid.grants] },
    grid: points,
    worlds: { reference, publisher },
    published: {
      rederiveOverShared: options.anchors.ratios.rederiveOverShared,
      sharedOverTurn: options.anchors.ratios.sharedOverTurn,
    },
  } satisfies MapResults);
  const files = await writeMapOutputs(results, options.outDir);
  return { results, files };
}

/** Writes each file beside its final name and renames it there: a reader never meets half a file. */
async function writeWhole(file: string, text: string): Promise<void> {
  const partial = `${file}.partial`;
  try {
    await writeFile(partial, text);
    await rename(partial, file);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}

async function writeMapOutputs(results: MapResults, outDir: string): Promise<string[]> {
  const dir = path.join(outDir, 'map');
  await mkdir(dir, { recursive: true });
  const json = `${JSON.stringify(results, null, 2)}\n`;
  const files = [
    path.join(dir, resultsFileName(results.commit, results.quick ? 'quick' : 'full')),
    path.join(outDir, results.quick ? 'staircase-map.quick.md' : 'staircase-map.md'),
  ];
  await writeWhole(files[0]!, json);
  await writeWhole(files[1]!, renderMapMarkdown(results));
  // A quick map never replaces the latest of a full one.
  if (!results.quick) {
    files.push(path.join(dir, 'latest.json'));
    await writeWhole(files[2]!, json);
  }
  return files;
}
