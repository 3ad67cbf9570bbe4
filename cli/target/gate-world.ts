/**
 * `costlab gate --world <file>`: the world file `serve --world` reads, gated
 * the way the structural lane gates the reference world — exactly. The world
 * is served by `costlab serve --stdio --world <file>` and judged on the
 * catalogue consistency rows; each row is one structural verdict (expected
 * 1, a pass; `warn` and `not_applicable` count as passes, `not_exercised` as a failure). Exit 0 pass,
 * 1 a row failed, 2 could not measure.
 */
import { renderMarkdownTable } from '../../bench/markdown/index.js';
import { exitCodeFor, structuralVerdict } from '../../bench/gate/index.js';
import { runTargets } from '../../bench/own-server/index.js';
import { DEFAULT_TARGET_CONFIG } from '../../bench/own-server/index.js';
import { worldTarget } from './target-options.js';
import { writeOutputFile } from '../../bench/results/index.js';
import { progressLines } from '../../bench/progress/index.js';

export async function runGateWorld(worldFile: string, out: string | undefined): Promise<number> {
  const report = await runTargets({
    kind: 'target-conformance',
    specs: [worldTarget(worldFile)],
    config: { ...DEFAULT_TARGET_CONFIG, listRepeats: 3, timeoutMs: 60_000 },
    command: `costlab gate --world ${worldFile}`,
    onProgress: progressLines('gate'),
  });
  const outcome = report.targets[0]!;
  if (outcome.status === 'failed') {
    process.stderr.write(
      `costlab gate: could not measure: the served world ` +
        `failed: ${outcome.failure?.code} ${outcome.failure?.message}\n`,
    );
    return 2;
  }
  const rows = (outcome.rows ?? []).map((row) =>
    structuralVerdict({
      segment: `${row.id} (${row.verdict})`,
      expected: 1,
      actual: row.verdict === 'fail' || row.verdict === 'error' || row.verdict === 'not_exercised' ? 0 : 1,
    }),
  );
  const table =
    `## costlab gate: world ${worldFile}, served and judged on the catalogue consistency ` +
    `rows\n\n${renderMarkdownTable(rows, { reasons: 'all' })}\n`;
  process.stdout.write(table);
  if (out !== undefined) await writeOutputFile(out, table);
  return exitCodeFor(rows);
}
