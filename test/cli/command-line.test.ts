/**
 * costlab's command line on commander: version, help, per-flag refusals with
 * exit code 2, and a closed stdout that ends the output quietly. In process
 * through `main` (stdout and stderr captured), and through `bin/costlab.mjs`
 * where the behaviour is the process's own (a real pipe closed by `head`).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { captureOutput, type CapturedOutput } from '../fixtures/captured-output.js';
import { COMMAND_NAMES, main } from '../../cli/main.js';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const VERSION = (JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

let output: CapturedOutput;

beforeEach(() => {
  output = captureOutput();
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('costlab: version and help', () => {
  it('prints the package version for --version and exits 0', async () => {
    expect(await main(['--version'])).toBe(0);
    expect(output.stdout.trim()).toBe(VERSION);
  });

  it('lists every command with its summary in the top-level help', async () => {
    expect(await main(['--help'])).toBe(0);
    expect(COMMAND_NAMES).toEqual([
      'demo',
      'bench',
      'serve',
      'conformance',
      'gate',
      'compare',
      'history',
      'profile',
      'sweep',
      'map',
      'report',
      'audit',
    ]);
    for (const name of COMMAND_NAMES) expect(output.stdout).toMatch(new RegExp(`^  ${name} +\\S`, 'm'));
    expect(output.stdout).toMatch(/^ {2}demo +run one turn of the reference world and print its audit trail$/m);
  });

  it("answers help <command> with that command's options", async () => {
    expect(await main(['help', 'gate'])).toBe(0);
    expect(output.stdout).toMatch(/^Usage: costlab gate \[options\]/);
    for (const flag of [
      '--baseline',
      '--repeats',
      '--threshold',
      '--lanes',
      '--update-baseline',
      '--json',
      '--bencher',
      '--out',
    ])
      expect(output.stdout).toContain(flag);
    expect(output.stdout).toContain('Exit 0 pass, 1 regression, 2 could not measure (');
  });

  it('prints demo --help without running the demo', async () => {
    expect(await main(['demo', '--help'])).toBe(0);
    expect(output.stdout).toMatch(/^Usage: costlab demo \[options\]/);
    expect(output.stdout).toContain('--strategy <name>');
    expect(output.stdout).not.toContain('turn opened');
  });

  it("shows profile's defaults in its help: every strategy, 1000 turns, 8 at a time, clinic on", async () => {
    expect(await main(['profile', '--help'])).toBe(0);
    // Commander wraps each description to the terminal's width beside the longest flag; read it unwrapped.
    const help = output.stdout.replace(/\s+/g, ' ');
    expect(help).toMatch(/--strategy <s> which catalogue strategy to profile \(default: "all"\)/);
    expect(help).toMatch(/--turns <n> turns of the reference world per run \(default: 1000\)/);
    expect(help).toMatch(/--concurrent <k> turns in flight at once under clinic \(default: 8\)/);
    expect(help).toMatch(/--no-clinic skip clinic doctor/);
  });

  it('exits 2 when no command is named, or an unknown one', async () => {
    expect(await main([])).toBe(2);
    expect(output.stderr).toContain('Usage: costlab');
    output.stderr = '';
    expect(await main(['benhc'])).toBe(2);
    expect(output.stderr).toContain("costlab: unknown command 'benhc'");
    expect(output.stderr).toContain('(Did you mean bench?)');
  });
});

describe('costlab: refusals name the flag', () => {
  it.each(COMMAND_NAMES)('%s refuses an unknown option with exit 2', async (name) => {
    expect(await main([name, '--bogus'])).toBe(2);
    expect(output.stderr).toContain(`costlab ${name}: unknown option '--bogus'`);
    expect(output.stdout).toBe('');
  });

  it('gives one error per bad flag, each naming the flag and its value', async () => {
    expect(await main(['gate', '--repeats', '0', '--threshold', 'x', '--lanes', 'structural,wall-clock'])).toBe(2);
    const lines = output.stderr.split('\n').filter((line) => line.startsWith('costlab gate: '));
    expect(lines).toEqual([
      "costlab gate: --threshold must be a positive number, got 'x'",
      "costlab gate: --lanes must be a comma-separated subset of structural,instructions, got 'structural,wall-clock'",
      "costlab gate: --repeats must be a positive integer, got '0'",
    ]);
  });

  it("checks bench's counts once, positive or non-negative as each flag needs", async () => {
    expect(await main(['bench', '--turns', '1.5', '--warmup', '-1', '--mcp-turns=0'])).toBe(2);
    expect(output.stderr).toContain("costlab bench: --turns must be a positive integer, got '1.5'");
    expect(output.stderr).toContain("costlab bench: --warmup must be a non-negative integer, got '-1'");
    expect(output.stderr).toContain("costlab bench: --mcp-turns must be a positive integer, got '0'");
  });

  it.each([
    [
      ['demo', '--strategy', 'fastest'],
      "costlab demo: --strategy must be one of rederive, shared, turn, got 'fastest'",
    ],
    [['serve', '--http', '--port', '70000'], "costlab serve: --port must be a port number (0 to 65535), got '70000'"],
    [['serve', '--http', '--idle-timeout', '0'], "costlab serve: --idle-timeout must be a positive number, got '0'"],
    [
      ['history', '--strategy', 'quick'],
      "costlab history: --strategy must be one of rederive, shared, turn, all, got 'quick'",
    ],
    [['profile', '--top', 'ten'], "costlab profile: --top must be a positive integer, got 'ten'"],
    [
      ['profile', '--strategy', 'fast'],
      "costlab profile: --strategy must be one of rederive, shared, turn, all, got 'fast'",
    ],
    [['compare', 'a', 'b', '--rounds', '0'], "costlab compare: --rounds must be a positive integer, got '0'"],
    [
      ['compare', 'a', 'b', '--threshold-wall', '-0.1'],
      "costlab compare: --threshold-wall must be a positive number, got '-0.1'",
    ],
  ])('%j is refused: %s', async (argv, message) => {
    expect(await main(argv)).toBe(2);
    expect(output.stderr).toContain(message);
  });

  it('refuses compare without both commits, and serve without exactly one transport', async () => {
    expect(await main(['compare', 'HEAD'])).toBe(2);
    expect(output.stderr).toContain("costlab compare: missing required argument 'head'");
    expect(await main(['serve'])).toBe(2);
    expect(output.stderr).toContain('costlab serve: choose exactly one of --stdio and --http');
    expect(await main(['serve', '--stdio', '--http'])).toBe(2);
  });
});

describe('costlab demo', () => {
  it('honours --strategy=shared', async () => {
    expect(await main(['demo', '--strategy=shared'])).toBe(0);
    expect(output.stdout).toMatch(/^strategy shared: 1 authority load\(s\), 27 registry derivation\(s\)/m);
  });

  it('runs turn by default: one derivation for the whole turn', async () => {
    expect(await main(['demo'])).toBe(0);
    expect(output.stdout).toMatch(
      /^strategy turn: 1 authority load\(s\), 1 registry derivation\(s\), 1 provider call\(s\)/m,
    );
  });
});

describe('costlab as a process', () => {
  it('ends quietly with exit 0 when the reader closes output.stdout early (costlab demo | head -3)', () => {
    const run = spawnSync('bash', ['-o', 'pipefail', '-c', 'node bin/costlab.mjs demo | head -3'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout.split('\n').filter((line) => line.length > 0)).toHaveLength(2);
    expect(run.stdout).toMatch(/^turn opened \(available\)/);
  });

  it('exits 2 on a usage error and 0 on --version', () => {
    const bad = spawnSync(process.execPath, ['bin/costlab.mjs', 'gate', '--repeats', 'many'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("costlab gate: --repeats must be a positive integer, got 'many'");
    const version = spawnSync(process.execPath, ['bin/costlab.mjs', '--version'], { cwd: REPO_ROOT, encoding: 'utf8' });
    expect(version.status).toBe(0);
    expect(version.stdout.trim()).toBe(VERSION);
  });
});
