/**
 * Runs the official MCP conformance suite (`@modelcontextprotocol/conformance`,
 * server scenarios) against a Streamable HTTP URL and judges each scenario:
 * `pass`, `fail`, or `not_applicable` with the capability or fixture tool it
 * needs (scenario-needs.ts), read from the server's own initialize answer and
 * listing. The suite needs Node 22; on an older host it runs under `node@22`
 * from npm (`npx -p node@22`), which npx caches after the first run.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEFAULT_TARGET_CONFIG } from '../own-server/target-config.js';
import { TargetSession } from '../own-server/target-session.js';
import { Redactor } from '../own-server/secrets.js';
import { parseTargetSpec } from '../own-server/target-spec.js';
import { tailLines } from '../process/stderr-tail.js';
import { notApplicableBecause, SCENARIO_NEEDS } from './scenario-needs.js';

const SUITE_PACKAGE = '@modelcontextprotocol/conformance@0.1.16';
const SUITE_NODE = 'node@22';
/** The whole suite, npx's first install included: a bound, not an estimate (the scenarios alone take seconds). */
const SUITE_TIMEOUT_MS = 10 * 60_000;

interface OfficialScenario {
  readonly scenario: string;
  readonly verdict: 'pass' | 'fail' | 'not_applicable';
  readonly checksPassed: number;
  readonly checksFailed: number;
  /** Why it does not apply, or the suite's words for each failed check. */
  readonly detail: string;
}

export interface OfficialReport {
  readonly schemaVersion: 1;
  readonly kind: 'official-conformance';
  readonly url: string;
  readonly suite: string;
  readonly node: string;
  readonly capabilities: Record<string, unknown> | null;
  readonly tools: readonly string[];
  readonly scenarios: readonly OfficialScenario[];
  readonly summary: {
    readonly applicable: number;
    readonly passed: number;
    readonly failed: number;
    readonly notApplicable: number;
  };
}

class OfficialSuiteFailed extends Error {
  override readonly name = 'OfficialSuiteFailed';
}

/** The command that runs the suite: under this node when it is 22 or newer, under node@22 from npm otherwise. */
export function suiteCommand(url: string, outDir: string, nodeVersion = process.versions.node): string[] {
  const packages =
    Number(nodeVersion.split('.')[0]) >= 22 ? ['-p', SUITE_PACKAGE] : ['-p', SUITE_NODE, '-p', SUITE_PACKAGE];
  return ['npx', '--yes', ...packages, 'conformance', 'server', '--url', url, '--output-dir', outDir];
}

interface Check {
  readonly status?: string;
  readonly errorMessage?: string;
  readonly name?: string;
}

/** Each scenario's checks from the suite's output directory (`server-<scenario>-<time>/checks.json`). */
async function readChecks(outDir: string): Promise<Map<string, Check[]>> {
  const out = new Map<string, Check[]>();
  for (const entry of await readdir(outDir)) {
    const match = /^server-(.+)-\d{4}-\d{2}-\d{2}T/.exec(entry);
    if (match === null) continue;
    const raw = JSON.parse(await readFile(path.join(outDir, entry, 'checks.json'), 'utf8')) as unknown;
    out.set(match[1]!, Array.isArray(raw) ? (raw as Check[]) : []);
  }
  return out;
}

async function runSuite(url: string, outDir: string, onProgress: (line: string) => void): Promise<string> {
  const [command, ...args] = suiteCommand(url, outDir);
  return new Promise((resolve, reject) => {
    const child = spawn(command!, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      reject(new OfficialSuiteFailed(`the suite did not finish within ${SUITE_TIMEOUT_MS / 60_000} minutes`));
    }, SUITE_TIMEOUT_MS);
    const take = (chunk: Buffer): void => {
      const text = chunk.toString('utf8');
      output = (output + text).slice(-65_536);
      for (const line of text.split('\n'))
        if (line.startsWith('=== Running scenario:'))
          onProgress(line.replace(/^=== Running scenario: (.*) ===$/, 'scenario $1'));
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new OfficialSuiteFailed(`could not start ${command}: ${error.message}`));
    });
    child.on('exit', () => {
      clearTimeout(timer);
      resolve(output);
    });
  });
}

/**
 * The server's declared capabilities and what it lists by name, read as a client would; null when it cannot be read.
 */
async function serverFacts(
  url: string,
  headers: Record<string, string>,
): Promise<{ capabilities: Record<string, unknown>; tools: string[]; fixtures: string[] } | null> {
  let session: TargetSession | undefined;
  try {
    session = await TargetSession.open(
      parseTargetSpec(url),
      { name: 'suite', headers, env: {}, exclusive: [] },
      { timeoutMs: 30_000, limits: DEFAULT_TARGET_CONFIG, redactor: new Redactor() },
    );
    const capabilities = session.capabilities;
    const tools =
      capabilities['tools'] === undefined ? [] : (await session.list()).tools.map((tool) => String(tool['name']));
    const fixtures = [
      ...(capabilities['prompts'] === undefined ? [] : await session.names('prompts/list')),
      ...(capabilities['resources'] === undefined
        ? []
        : [...(await session.names('resources/list')), ...(await session.names('resources/templates/list'))]),
    ];
    return { capabilities, tools, fixtures };
  } catch {
    return null;
  } finally {
    await session?.close();
  }
}

export interface OfficialRunOptions {
  /** The URL the suite is given. */
  readonly url: string;
  /**
   * Where costlab reads the capabilities from (the same server, with the headers the suite cannot send); default `url`.
   */
  readonly facts?: { readonly url: string; readonly headers: Record<string, string> };
  readonly onProgress?: (line: string) => void;
}

export async function runOfficialSuite(options: OfficialRunOptions): Promise<OfficialReport> {
  const progress = options.onProgress ?? (() => undefined);
  const facts = await serverFacts(options.facts?.url ?? options.url, options.facts?.headers ?? {});
  const outDir = await mkdtemp(path.join(tmpdir(), 'costlab-official-'));
  progress(`${suiteCommand(options.url, outDir).join(' ')}`);
  const output = await runSuite(options.url, outDir, progress);
  const checks = await readChecks(outDir);
  if (checks.size === 0) throw new OfficialSuiteFailed(`the suite wrote no results: ${tailLines(output, 8)}`);
  const tools = new Set(facts?.tools ?? []);
  const offer = { tools, fixtures: new Set(facts?.fixtures ?? []) };
  const scenarios: OfficialScenario[] = [...checks.entries()]
    .sort(([a], [b]) => Object.keys(SCENARIO_NEEDS).indexOf(a) - Object.keys(SCENARIO_NEEDS).indexOf(b))
    .map(([scenario, list]) => {
      const passed = list.filter((check) => check.status === 'SUCCESS').length;
      const failed = list.filter((check) => check.status === 'FAILURE');
      // Without the server's own answer, nothing is excused: every scenario applies.
      const excuse = facts === null ? undefined : notApplicableBecause(scenario, facts.capabilities, offer);
      if (excuse !== undefined && failed.length > 0)
        return {
          scenario,
          verdict: 'not_applicable',
          checksPassed: passed,
          checksFailed: failed.length,
          detail: excuse,
        };
      const verdict = failed.length === 0 && passed > 0 ? 'pass' : 'fail';
      const detail =
        failed.length === 0
          ? passed > 0
            ? ''
            : 'no check passed'
          : failed.map((check) => `${check.name ?? ''}: ${check.errorMessage ?? 'failed'}`.slice(0, 300)).join('; ');
      return { scenario, verdict, checksPassed: passed, checksFailed: failed.length, detail };
    });
  const applicable = scenarios.filter((s) => s.verdict !== 'not_applicable');
  return {
    schemaVersion: 1,
    kind: 'official-conformance',
    url: options.url,
    suite: SUITE_PACKAGE,
    node:
      Number(process.versions.node.split('.')[0]) >= 22
        ? process.version
        : `${SUITE_NODE} from npm (host ${process.version})`,
    capabilities: facts?.capabilities ?? null,
    tools: [...tools],
    scenarios,
    summary: {
      applicable: applicable.length,
      passed: applicable.filter((s) => s.verdict === 'pass').length,
      failed: applicable.filter((s) => s.verdict === 'fail').length,
      notApplicable: scenarios.length - applicable.length,
    },
  };
}
