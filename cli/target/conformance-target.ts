/** `costlab conformance --target …`: catalogue consistency rows for any MCP server; writes target-conformance.{json,md}. */
import { CredentialMissing } from '../../bench/target/target-config.js';
import { runTargets, targetRunExitCode } from '../../bench/target/run-targets.js';
import { renderTargetMarkdown } from '../../bench/target/target-markdown.js';
import { writeTargetReport } from './bench-target.js';
import { targetOptions, usageFailure } from './target-options.js';
import type { TargetFlags } from './target-options.js';

/**
 * Judges the catalogue consistency rows, each with its verdict and frames;
 * writes <out>/target-conformance.{json,md}. Exit 0 every row pass, warn or
 * n/a; 1 a row failed or a target could not be judged; 2 usage.
 */
export async function runConformanceTarget(flags: TargetFlags, argv: readonly string[]): Promise<number> {
  let options;
  try {
    options = await targetOptions(flags);
  } catch (error) {
    return usageFailure('conformance', error);
  }
  let report;
  try {
    report = await runTargets({
      kind: 'target-conformance',
      specs: options.specs,
      config: options.config,
      command: ['costlab conformance', ...argv].join(' '),
      onProgress: (line) => process.stderr.write(`conformance: ${line}\n`),
    });
  } catch (error) {
    // Credentials are resolved before any target runs: a missing one is the caller's to fix.
    if (error instanceof CredentialMissing) return usageFailure('conformance', error);
    throw error;
  }
  await writeTargetReport(report, options.out, 'target-conformance', options.json, renderTargetMarkdown(report));
  return targetRunExitCode(report);
}
