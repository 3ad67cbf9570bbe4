/**
 * The package's library face, imported by name from a separate project: a
 * host links costlab into its node_modules and imports the kernel, the MCP
 * surface, worlds, the harness and targets through `exports`, then measures
 * its own served world as a target — all from code.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './support.js';

const run = promisify(execFile);
const host = mkdtempSync(path.join(tmpdir(), 'costlab-host-'));
afterAll(() => rmSync(host, { recursive: true, force: true }));

const hostScript = `
import { MediationKernel, canonicalJson } from 'costlab';
import { isCatalogueStrategyName } from 'costlab/kernel';
import { connectInMemory, McpHttpServer } from 'costlab/mcp';
import { WorldConfigSchema } from 'costlab/world';
import { SpanRecorder, nearestRank, buildReferenceKernel } from 'costlab/harness';
import { parseTargetConfig, parseTargetSpec, runTargets } from 'costlab/target';

const { kernel } = buildReferenceKernel('turn');
const report = await runTargets({
  kind: 'target-conformance',
  specs: [
    parseTargetSpec(
      'stdio:' + JSON.stringify(process.execPath) + ' ' + JSON.stringify(process.argv[2]) +
        ' serve --stdio --audit /dev/null',
    ),
  ],
  config: parseTargetConfig({ listRepeats: 2, timeoutMs: 60000 }),
  command: 'host',
});
console.log(JSON.stringify({
  kernel: kernel instanceof MediationKernel,
  canonical: canonicalJson({ b: 1, a: 2 }),
  strategy: isCatalogueStrategyName('turn'),
  mcp: typeof connectInMemory === 'function' && typeof McpHttpServer === 'function',
  world: typeof WorldConfigSchema.parse === 'function',
  harness: typeof SpanRecorder === 'function' && nearestRank([3, 1, 2], 50),
  rows: report.targets[0].rows.map((row) => row.verdict),
}));
`;

describe('the library face (package exports)', () => {
  it('imports kernel, MCP surface, world, harness and target by ' +
    'package name from another project, and runs a target from code', async () => {
    mkdirSync(path.join(host, 'node_modules'));
    symlinkSync(REPO_ROOT, path.join(host, 'node_modules', 'costlab'), 'dir');
    writeFileSync(path.join(host, 'package.json'), JSON.stringify({ name: 'host', type: 'module', private: true }));
    writeFileSync(path.join(host, 'host.mjs'), hostScript);
    // The faces resolve to the built dist/ (docs/adr/0048-built-package.md): plain node, no TypeScript loader.
    const { stdout } = await run(process.execPath, ['host.mjs', path.join(REPO_ROOT, 'bin/costlab.mjs')], {
      cwd: host,
      maxBuffer: 4 * 1024 * 1024,
    });
    const seen = JSON.parse(stdout.trim().split('\n').pop()!) as Record<string, unknown>;
    expect(seen).toMatchObject({
      kernel: true,
      canonical: '{"a":2,"b":1}',
      strategy: true,
      mcp: true,
      world: true,
      harness: 2,
    });
    // The served tools declare an outputSchema, and the config plans no call: that row saw nothing, so it says so.
    expect(seen['rows']).toEqual([
      'pass',
      'pass',
      'pass',
      'not_applicable',
      'not_applicable',
      'pass',
      'pass',
      'not_exercised',
    ]);
  }, 300_000);
});
