/**
 * `costlab compare --target <base> --target <head>`: two targets (two builds,
 * two commits of a server, two servers) compared with compare's statistics.
 * `costlab compare --world <file> <base> <head>`: the same world file served
 * by two commits of costlab, each from its own worktree.
 */
import path from 'node:path';
import { markdownTable } from 'markdown-table';
import { describeThrownWithName } from '../../src/kernel/index.js';
import { markdownCode } from '../../src/conformance/index.js';
import { renderMarkdownTable } from '../../bench/markdown/index.js';
import { exitCodeFor } from '../../bench/gate/index.js';
import { prepareCommit, resolveCommit } from '../../bench/gate/index.js';
import { CompareSideFailed, compareTargets } from '../../bench/own-server/index.js';
import { resolveIdentities } from '../../bench/own-server/index.js';
import { Redactor } from '../../bench/own-server/index.js';
import type { TargetSpec } from '../../bench/own-server/index.js';
import { targetOptions, usageFailure, worldTarget } from './target-options.js';
import type { TargetFlags } from './target-options.js';
import { withOutputDirectory, writeOutputFile } from '../../bench/results/index.js';
import { progressLines } from '../../bench/progress/index.js';

export interface CompareTargetFlags extends TargetFlags {
  readonly rounds: number;
  readonly thresholdWall: number;
}

/**
 * Fresh processes (or connections) of both targets, interleaved A B, B A, …;
 * one median per process and request; compare's wall-clock verdicts; a
 * markdown table, and <out>/compare-targets.{md,json}. Exit 0 no regression,
 * 1 a flagged regression, 2 could not measure.
 */
export async function runCompareTarget(flags: CompareTargetFlags, operands: readonly string[]): Promise<number> {
  let options;
  try {
    // --world names the world; the targets are the two commits serving it, built below.
    options = await targetOptions(
      flags.world === undefined ? flags : { ...flags, world: undefined, target: ['stdio:true'] },
    );
  } catch (error) {
    return usageFailure('compare', error);
  }
  const { rounds, thresholdWall: threshold } = flags;
  const progress = progressLines('compare');
  let base: TargetSpec;
  let head: TargetSpec;
  let labels: [string, string];
  try {
    const world = flags.world;
    if (world !== undefined) {
      if (operands.length !== 2) throw new Error('with --world, name exactly two commits (base and head)');
      const file = path.resolve(world);
      // Both refs resolved before either is built.
      await resolveCommit(process.cwd(), operands[0]!);
      await resolveCommit(process.cwd(), operands[1]!);
      progress(`preparing ${operands[0]}`);
      const b = await prepareCommit({ repo: process.cwd(), ref: operands[0]! });
      progress(`preparing ${operands[1]}`);
      const h = await prepareCommit({ repo: process.cwd(), ref: operands[1]! });
      base = {
        ...worldTarget(file, path.join(b.dir, 'bin/costlab.mjs')),
        text: `${b.sha.slice(0, 10)} serving ${world}`,
      };
      head = {
        ...worldTarget(file, path.join(h.dir, 'bin/costlab.mjs')),
        text: `${h.sha.slice(0, 10)} serving ${world}`,
      };
    } else {
      if (options.specs.length !== 2 || operands.length > 0)
        throw new Error('name exactly two targets: --target <base> --target <head>');
      [base, head] = options.specs as [TargetSpec, TargetSpec];
    }
    labels = [base.text, head.text];
  } catch (error) {
    return usageFailure('compare', error);
  }
  const redactor = new Redactor();
  try {
    const identities = await resolveIdentities(options.config, redactor);
    progress(`${rounds} rounds of fresh processes, A B B A …`);
    const comparison = await compareTargets(base, head, identities[0]!, options.config, redactor, {
      rounds,
      threshold,
      onProgress: progress,
    });
    const { exact } = comparison;
    const markdown = [
      `## costlab compare: ${markdownCode(labels[0])} → ${markdownCode(labels[1])}`,
      '',
      `${rounds} rounds, one fresh process (or connection) per side per round, ` +
        `order ${comparison.firsts.map((s) => (s === 'base' ? 'AB' : 'BA')).join(' ')}; ${options.config.samples} ` +
        `measured requests after ${options.config.warmup} warm-up per process; node ${process.version}. Times in ` +
        `µs.`,
      '',
      renderMarkdownTable(comparison.rows, { reasons: 'all' }),
      '',
      markdownTable(
        [
          ['listing (exact)', 'base', 'head'],
          ['tools', `${exact.base.toolCount}`, `${exact.head.toolCount}`],
          ['tools/list bytes', `${exact.base.listingBytes}`, `${exact.head.listingBytes}`],
          ['input schema bytes', `${exact.base.schemaBytes}`, `${exact.head.schemaBytes}`],
        ],
        { alignDelimiters: false },
      ),
      '',
    ].join('\n');
    const document = {
      schemaVersion: 1,
      kind: 'target-compare',
      base: labels[0],
      head: labels[1],
      rounds,
      firsts: comparison.firsts,
      rows: comparison.rows,
      exact,
    };
    await withOutputDirectory(options.out, 'costlab compare --target', async () => {
      await writeOutputFile(path.join(options.out, 'compare-targets.md'), markdown);
      await writeOutputFile(
        path.join(options.out, 'compare-targets.json'),
        `${JSON.stringify(redactor.scrubValue(document), null, 2)}\n`,
      );
    });
    process.stdout.write(redactor.scrub(options.json ? `${JSON.stringify(document, null, 2)}\n` : markdown));
    return exitCodeFor(comparison.rows);
  } catch (error) {
    const detail =
      error instanceof CompareSideFailed ? `${error.failure.code}: ${error.message}` : describeThrownWithName(error);
    process.stderr.write(`costlab compare: could not measure: ${redactor.scrub(detail)}\n`);
    return 2;
  }
}
