/**
 * `costlab conformance --official [url]`: the official MCP conformance suite
 * against a user's Streamable HTTP URL, or, without one, against costlab's
 * own `serve --http` over the world made for the suite, reached through the
 * loopback bearer proxy (ADR 0052). Writes <out>/official-conformance.{json,md};
 * exit 0 every applicable scenario passes, 1 one fails, 2 the suite could not run.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describeThrownWithName } from '../../src/kernel/index.js';
import { renderOfficialMarkdown } from '../../bench/markdown/index.js';
import { runOfficialSuite } from '../../bench/official-conformance/index.js';
import { startSelfServer } from '../../bench/official-conformance/index.js';
import type { SelfServer } from '../../bench/official-conformance/index.js';
import { parseTargetSpec } from '../../bench/own-server/index.js';
import { progressLines } from '../../bench/progress/index.js';
import type { HttpTransportKind } from '../../src/mcp/index.js';

export async function runOfficial(
  official: string | true,
  flags: { out: string; json?: boolean; httpTransport?: HttpTransportKind },
  argv: readonly string[],
): Promise<number> {
  const progress = progressLines('conformance --official');
  if (official !== true) {
    try {
      if (parseTargetSpec(official).kind !== 'http')
        throw new Error('takes an http(s) URL: the suite speaks Streamable HTTP');
    } catch (error) {
      process.stderr.write(
        `costlab conformance: --official ${error instanceof Error ? error.message : String(error)}\n`,
      );
      return 2;
    }
  }
  let self: SelfServer | undefined;
  try {
    if (official === true) {
      const transport = flags.httpTransport ?? 'sdk';
      progress(
        `starting costlab serve --http (${transport} transport) over the conformance world, behind the loopback ` +
          'bearer proxy',
      );
      self = await startSelfServer(transport);
    }
    const report = await runOfficialSuite({
      url: self?.url ?? (official as string),
      ...(self === undefined ? {} : { facts: self.upstream }),
      onProgress: progress,
    });
    const markdown = renderOfficialMarkdown(report, ['costlab conformance', ...argv].join(' '));
    await mkdir(flags.out, { recursive: true });
    await writeFile(path.join(flags.out, 'official-conformance.json'), `${JSON.stringify(report, null, 2)}\n`);
    await writeFile(path.join(flags.out, 'official-conformance.md'), markdown);
    process.stdout.write(flags.json === true ? `${JSON.stringify(report, null, 2)}\n` : markdown);
    return report.summary.failed === 0 && report.summary.applicable > 0 ? 0 : 1;
  } catch (error) {
    process.stderr.write(`costlab conformance --official: could not run the suite: ${describeThrownWithName(error)}\n`);
    return 2;
  } finally {
    await self?.close();
  }
}
