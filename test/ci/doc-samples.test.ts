/**
 * docs/ci.md quotes output of real runs (scripts/ci/doc-samples.ts writes it):
 * this fails when the page and the sample files disagree, when the quoted
 * pull-request comment no longer has the rows `costlab compare` makes, or when
 * compare's message in a shallow clone has changed, so the page cannot drift
 * from the commands while CI stays green.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSTRUCTION_LANES, structuralLane } from '../../bench/gate/lanes.js';
import { DOC, readSamples, shallowCloneSample, spliceSamples } from '../../scripts/ci/doc-samples.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The (lane, segment) pairs of a compare table in markdown. */
function tableRows(markdown: string): string[] {
  return markdown
    .split('\n')
    .filter((line) => /^\| (structural|instructions|wall-clock) \|/.test(line))
    .map((line) =>
      line
        .split('|')
        .slice(1, 3)
        .map((cell) => cell.trim())
        .join(' | '),
    );
}

describe('docs/ci.md samples', () => {
  let scratch: string;
  beforeAll(async () => {
    scratch = await mkdtemp(path.join(tmpdir(), 'costlab-doc-samples-'));
  });
  afterAll(() => rm(scratch, { recursive: true, force: true }));

  it('are the sample files of docs/ci/, every one of them quoted', async () => {
    const doc = await readFile(DOC, 'utf8');
    expect(spliceSamples(doc, readSamples())).toBe(doc);
    for (const name of ['compare-comment', 'compare-disk', 'shallow-clone'])
      expect(doc).toContain(`<!-- sample: ${name} -->`);
  });

  it('catch a page edited by hand (the check can fail)', async () => {
    const doc = (await readFile(DOC, 'utf8')).replace(
      /(<!-- sample: compare-disk -->\n```\n)compare: /,
      '$1compare (edited): ',
    );
    expect(spliceSamples(doc, readSamples())).not.toBe(doc);
  });

  it(
    'quote a comment with the rows compare makes today, for each lane it ran: ' +
      'every structural check, every instruction lane, both wall-clock medians',
    async () => {
      const structural = await structuralLane(ROOT);
      const byLane = {
        structural: structural.map((row) => `structural | ${row.segment}`),
        instructions: INSTRUCTION_LANES.map((lane) => `instructions | ${lane.label}`),
        'wall-clock': ['wall-clock | catalogue segment (p50 µs)', 'wall-clock | mediated call (p50 µs)'],
      };
      const rows = tableRows(readSamples()['compare-comment']);
      const lanes = new Set(rows.map((row) => row.split(' | ')[0]!));
      // The structural and wall-clock lanes at least (the instruction lanes need valgrind, and take long on a
      // shared machine).
      expect(lanes).toContain('structural');
      expect(lanes).toContain('wall-clock');
      expect(rows).toEqual(Object.entries(byLane).flatMap(([lane, expected]) => (lanes.has(lane) ? expected : [])));
    },
  );

  it('quote what compare says in a shallow clone, as it says it now', async () => {
    const repo = path.join(scratch, 'repo');
    const git = (...args: string[]) => {
      const run = spawnSync('git', args, { cwd: repo, encoding: 'utf8' });
      expect(run.status, run.stderr).toBe(0);
    };
    spawnSync('git', ['init', '-q', repo]);
    git('config', 'user.email', 'test@example.test');
    git('config', 'user.name', 'test');
    for (const n of [1, 2]) {
      await writeFile(path.join(repo, 'file.txt'), `commit ${n}\n`);
      git('add', 'file.txt');
      git('commit', '-q', '-m', `commit ${n}`);
    }
    expect(shallowCloneSample(repo)).toBe(readSamples()['shallow-clone']);
  });
});
