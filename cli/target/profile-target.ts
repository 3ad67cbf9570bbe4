/** `costlab profile --target stdio:node …`: a 0x flame graph of a Node MCP server under the configured call mix. */
import path from 'node:path';
import { TargetNotProfilable, profileTarget } from '../../bench/own-server/index.js';
import { CredentialMissing, resolveIdentities } from '../../bench/own-server/index.js';
import { Redactor } from '../../bench/own-server/index.js';
import { targetOptions, usageFailure } from './target-options.js';
import type { TargetFlags } from './target-options.js';
import { formatSeconds } from '../../bench/format/index.js';
import { progressLines } from '../../bench/progress/index.js';

export interface ProfileTargetFlags extends TargetFlags {
  readonly turns: number;
}

/**
 * Writes <out>/target/flamegraph.html; `--turns` is the number of rounds of the mix (one tools/list and each configured
 * call).
 */
export async function runProfileTarget(flags: ProfileTargetFlags): Promise<number> {
  let options;
  try {
    options = await targetOptions({ ...flags, out: flags.out ?? 'profiles' });
    if (options.specs.length !== 1) throw new Error('profile one target at a time');
  } catch (error) {
    return usageFailure('profile', error);
  }
  const redactor = new Redactor();
  try {
    const [identity] = await resolveIdentities(options.config, redactor);
    const outDir = path.resolve(options.out, 'target');
    const profile = await profileTarget(options.specs[0]!, identity!, options.config, redactor, {
      outDir,
      rounds: flags.turns,
      onProgress: progressLines('profile'),
    });
    const written = path.relative(process.cwd(), profile.html) || profile.html;
    const report = {
      schemaVersion: 1,
      kind: 'target-profile',
      target: options.specs[0]!.text,
      flamegraph: written,
      isolateLog: profile.isolateLog,
      requests: profile.requests,
      elapsedMs: Math.round(profile.elapsedMs),
    };
    process.stdout.write(
      options.json
        ? `${JSON.stringify(report, null, 2)}\n`
        : `wrote ${written}: ${profile.requests} requests in ${formatSeconds(profile.elapsedMs)}, ` +
            `from ${profile.isolateLog}\n`,
    );
    return 0;
  } catch (error) {
    // A target 0x cannot run (a URL, a server that is not node) is the caller's to change, like a missing credential.
    if (error instanceof CredentialMissing || error instanceof TargetNotProfilable)
      return usageFailure('profile', error);
    process.stderr.write(
      `costlab profile: ` +
        `${redactor.scrub(error instanceof Error ? `${error.name}: ${error.message}` : String(error))}\n`,
    );
    return 1;
  }
}
