/** `costlab bench --target …`: cost on the wire of any MCP server; writes target-bench.{json,md}. */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CredentialMissing } from '../../bench/target/target-config.js';
import { runTargets, targetRunExitCode } from '../../bench/target/run-targets.js';
import { renderTargetMarkdown } from '../../bench/target/target-markdown.js';
import type { TargetReport } from '../../bench/target/target-report-schema.js';
import { targetOptions, usageFailure } from './target-options.js';
import type { TargetFlags } from './target-options.js';

export async function writeTargetReport(report: TargetReport, out: string, stem: string, json: boolean, markdown: string): Promise<void> {
  await mkdir(out, { recursive: true });
  await writeFile(path.join(out, `${stem}.json`), `${JSON.stringify(report, null, 2)}\n`);
  await writeFile(path.join(out, `${stem}.md`), markdown);
  process.stdout.write(json ? `${JSON.stringify(report, null, 2)}\n` : markdown);
  process.stderr.write(`wrote ${path.join(out, `${stem}.json`)} and ${stem}.md\n`);
}

/**
 * Measures initialize, tools/list and each configured tools/call, warm and
 * cold, and the {n} curve; writes <out>/target-bench.{json,md}. Exit 0 all
 * measured, 1 a target failed (named in the report), 2 usage.
 */
export async function runBenchTarget(flags: TargetFlags, argv: readonly string[]): Promise<number> {
  let options;
  try {
    options = await targetOptions(flags);
  } catch (error) {
    return usageFailure('bench', error);
  }
  let report;
  try {
    report = await runTargets({
      kind: 'target-bench',
      specs: options.specs,
      config: options.config,
      command: ['costlab bench', ...argv].join(' '),
      onProgress: (line) => process.stderr.write(`bench: ${line}\n`),
    });
  } catch (error) {
    // Credentials are resolved before any target runs: a missing one is the caller's to fix.
    if (error instanceof CredentialMissing) return usageFailure('bench', error);
    throw error;
  }
  await writeTargetReport(report, options.out, 'target-bench', options.json, renderTargetMarkdown(report));
  return targetRunExitCode(report);
}
