/**
 * Regenerates the sample output docs/ci.md quotes, from real runs, so the page
 * shows what the commands print today:
 *
 * - `compare-comment.md`: the pull-request comment, `costlab compare
 *   --merge-base main HEAD` on this machine (stdout), with the line its stderr
 *   ends on about the worktrees' disk (`compare-disk.txt`);
 * - `shallow-clone.txt`: what compare says in a shallow clone (a depth-1 clone
 *   of this repository, asked for the commit before HEAD), the commit id shown
 *   as `<sha>`.
 *
 * Each is written to docs/ci/ and spliced into docs/ci.md between
 * `<!-- sample: <name> -->` and `<!-- /sample -->`. test/ci/doc-samples.test.ts
 * fails when docs/ci.md and docs/ci/ disagree, when the comment's rows are not
 * the rows compare makes now, or when a shallow clone's message has changed.
 *
 *   npx tsx scripts/ci/doc-samples.ts [--compare-output <stdout.md> --compare-log <stderr.txt>]
 *
 * Without the two files the script runs the compare itself (minutes: two
 * worktrees, the instruction lanes under valgrind, ten interleaved rounds).
 */
import { spawnSync } from 'node:child_process';
import { gitSync } from '../../bench/repository/git.js';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = path.join(ROOT, 'bin', 'costlab.mjs');
export const DOC = path.join(ROOT, 'docs', 'ci.md');
export const SAMPLES_DIR = path.join(ROOT, 'docs', 'ci');
export const SAMPLE_FILES = {
  'compare-comment': 'compare-comment.md',
  'compare-disk': 'compare-disk.txt',
  'shallow-clone': 'shallow-clone.txt',
} as const;
export type SampleName = keyof typeof SAMPLE_FILES;

const BLOCK = /(<!-- sample: ([\w-]+) -->\n)([\s\S]*?)(<!-- \/sample -->)/g;

/** docs/ci.md with each sample block's body replaced by the sample of that name (a block must name a known sample). */
export function spliceSamples(doc: string, samples: Readonly<Record<SampleName, string>>): string {
  return doc.replace(BLOCK, (_whole, open: string, name: string, _body: string, close: string) => {
    if (!(name in samples)) throw new Error(`docs/ci.md names a sample '${name}' the script does not make`);
    const text = samples[name as SampleName].replace(/\n*$/, '\n');
    // A one-line sample sits in a fenced block; the comment is markdown of its own.
    return name === 'compare-comment' ? `${open}\n${text}\n${close}` : `${open}\`\`\`\n${text}\`\`\`\n${close}`;
  });
}

export function readSamples(dir = SAMPLES_DIR): Record<SampleName, string> {
  return Object.fromEntries(
    Object.entries(SAMPLE_FILES).map(([name, file]) => [name, readFileSync(path.join(dir, file), 'utf8')]),
  ) as Record<SampleName, string>;
}

/** What `costlab compare <the commit before HEAD> HEAD` says in a depth-1 clone of `repo`, its commit id as `<sha>`. */
export function shallowCloneSample(repo: string): string {
  const scratch = mkdtempSync(path.join(tmpdir(), 'costlab-doc-sample-'));
  try {
    const parent = gitSync(repo, ['rev-parse', 'HEAD~1']);
    const clone = path.join(scratch, 'clone');
    gitSync(scratch, ['clone', '-q', '--depth', '1', pathToFileURL(repo).href, clone]);
    const run = spawnSync(process.execPath, [BIN, 'compare', parent, 'HEAD', '--lanes', 'structural'], {
      cwd: clone,
      encoding: 'utf8',
    });
    const line = run.stderr.split('\n').find((text) => text.startsWith('costlab compare: '));
    if (run.status !== 2 || line === undefined)
      throw new Error(
        `compare in a shallow clone exited ${run.status}, expected ` +
          `2 with a 'costlab compare:' line; stderr: ${run.stderr}`,
      );
    return `${line.replaceAll(parent, '<sha>')}\n`;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The last line compare's stderr prints about the worktrees it removed. */
export function diskLine(log: string): string {
  const line = log.split('\n').find((text) => /^compare: \d+ worktree\(s\) with their dependencies held /.test(text));
  if (line === undefined) throw new Error('the compare log has no line about the worktrees it removed');
  return `${line}\n`;
}

function flag(argv: readonly string[], name: string): string | undefined {
  const index = argv.indexOf(name);
  return index === -1 ? undefined : argv[index + 1];
}

async function main(argv: readonly string[]): Promise<number> {
  let output = flag(argv, '--compare-output');
  let log = flag(argv, '--compare-log');
  if ((output === undefined) !== (log === undefined)) {
    process.stderr.write(
      'doc-samples: give both --compare-output and --compare-log, or neither (then compare runs here)\n',
    );
    return 2;
  }
  if (output === undefined || log === undefined) {
    process.stderr.write('doc-samples: running costlab compare --merge-base main HEAD (minutes)…\n');
    const out = mkdtempSync(path.join(tmpdir(), 'costlab-doc-compare-'));
    const run = spawnSync(process.execPath, [BIN, 'compare', '--merge-base', 'main', 'HEAD', '--out', out], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    if (run.status !== 0 && run.status !== 1) {
      process.stderr.write(`doc-samples: compare exited ${run.status}:\n${run.stderr}`);
      return 1;
    }
    output = path.join(out, 'stdout.md');
    log = path.join(out, 'stderr.txt');
    writeFileSync(output, run.stdout);
    writeFileSync(log, run.stderr);
  }
  const samples: Record<SampleName, string> = {
    'compare-comment': readFileSync(output, 'utf8'),
    'compare-disk': diskLine(readFileSync(log, 'utf8')),
    'shallow-clone': shallowCloneSample(ROOT),
  };
  for (const [name, file] of Object.entries(SAMPLE_FILES))
    writeFileSync(path.join(SAMPLES_DIR, file), samples[name as SampleName]);
  writeFileSync(DOC, spliceSamples(readFileSync(DOC, 'utf8'), samples));
  process.stdout.write(
    `doc-samples: wrote ${Object.values(SAMPLE_FILES)
      .map((file) => `docs/ci/${file}`)
      .join(', ')} and docs/ci.md\n`,
  );
  return 0;
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  process.exitCode = await main(process.argv.slice(2));
