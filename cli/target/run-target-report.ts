/**
 * `costlab bench --target …` and `costlab conformance --target …`: the same
 * run over any MCP server, differing only in what it judges. bench measures
 * initialize, tools/list and each configured tools/call, warm and cold, and
 * the {n} curve (exit 0 all measured, 1 a target failed); conformance judges
 * the catalogue consistency rows, each with its verdict and frames (exit 0
 * every row pass, warn or n/a, 1 a row failed or a target could not be
 * judged). Both write <out>/target-<command>.{json,md,html}; 2 is a usage error.
 */
import path from 'node:path';
import { CredentialMissing } from '../../bench/own-server/index.js';
import { runTargets, targetRunExitCode } from '../../bench/own-server/index.js';
import { renderTargetHtml } from '../../bench/report/index.js';
import { renderTargetMarkdown } from '../../bench/markdown/index.js';
import { targetOptions, usageFailure } from './target-options.js';
import type { TargetFlags } from './target-options.js';
import { withOutputDirectory, writeOutputFile } from '../../bench/results/index.js';
import { progressLines } from '../../bench/progress/index.js';

export async function runTargetReport(
  command: 'bench' | 'conformance',
  flags: TargetFlags,
  argv: readonly string[],
): Promise<number> {
  let options;
  try {
    options = await targetOptions(flags);
  } catch (error) {
    return usageFailure(command, error);
  }
  let report;
  try {
    report = await runTargets({
      kind: `target-${command}`,
      specs: options.specs,
      config: options.config,
      command: [`costlab ${command}`, ...argv].join(' '),
      plan: options.plan,
      onProgress: progressLines(command),
    });
  } catch (error) {
    // Credentials are resolved before any target runs: a missing one is the caller's to fix.
    if (error instanceof CredentialMissing) return usageFailure(command, error);
    throw error;
  }
  const stem = `target-${command}`;
  const markdown = renderTargetMarkdown(report);
  await withOutputDirectory(options.out, report.command, async () => {
    await writeOutputFile(path.join(options.out, `${stem}.json`), `${JSON.stringify(report, null, 2)}\n`);
    await writeOutputFile(path.join(options.out, `${stem}.md`), markdown);
    await writeOutputFile(path.join(options.out, `${stem}.html`), renderTargetHtml(report));
  });
  process.stdout.write(options.json ? `${JSON.stringify(report, null, 2)}\n` : markdown);
  process.stderr.write(`wrote ${path.join(options.out, `${stem}.json`)}, ${stem}.md and ${stem}.html\n`);
  return targetRunExitCode(report);
}
