/** `costlab conformance --target …`: catalogue consistency rows for any MCP server; writes target-conformance.{json,md}. */
import { CredentialMissing } from '../../bench/target/target-config.js';
import { runTargets, targetRunExitCode } from '../../bench/target/run-targets.js';
import { renderTargetMarkdown } from '../../bench/target/target-markdown.js';
import { writeTargetReport } from './bench-target.js';
import { TARGET_OPTIONS_USAGE, parseTargetCommand, usageFailure } from './target-options.js';

export const CONFORMANCE_TARGET_USAGE = `usage: costlab conformance --target <t> [--target <t> …] [--config costlab.config.json] [--out dir] [--json]

Judges the catalogue consistency rows (listing stable, listChanged honoured,
unlisted names refused, identities differ only where allowed, cacheScope private
when listings differ, valid input schemas, at most 128 tools), each with a verdict
and the frames behind it. Writes <out>/target-conformance.json and .md.
Exit 0 every row pass/warn/n/a, 1 a row failed or a target could not be judged, 2 usage.

${TARGET_OPTIONS_USAGE}`;

export async function runConformanceTarget(argv: readonly string[]): Promise<number> {
  let options;
  try {
    options = await parseTargetCommand(argv);
  } catch (error) {
    return usageFailure('conformance', error, CONFORMANCE_TARGET_USAGE);
  }
  if (options.help) {
    process.stdout.write(`${CONFORMANCE_TARGET_USAGE}\n`);
    return 0;
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
    if (error instanceof CredentialMissing) return usageFailure('conformance', error, CONFORMANCE_TARGET_USAGE);
    throw error;
  }
  await writeTargetReport(report, options.out, 'target-conformance', options.json, renderTargetMarkdown(report));
  return targetRunExitCode(report);
}
