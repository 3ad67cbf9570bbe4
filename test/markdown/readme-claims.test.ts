/**
 * The README's claim about which published ratios reproduce is generated from
 * the committed run: this fails when the two disagree (fix: `npx tsx
 * scripts/readme-claims.ts`, or commit results with `costlab bench
 * --commit-results`, which rewrites the paragraph), and checks that the
 * paragraph follows the numbers rather than a template.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  expectedReadme,
  reproductionParagraph,
  withClaims,
  CLAIMS_END,
  CLAIMS_START,
} from '../../bench/markdown/readme-claims.js';
import { makeAnchorFigures } from '../fixtures/anchor-figures-fixture.js';
import { makeResults } from '../fixtures/results-fixture.js';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('README: which ratios reproduce', () => {
  it('says what the committed results/latest.json shows', async () => {
    const { current, expected } = await expectedReadme({ repoRoot: REPO_ROOT });
    expect(current, 'README.md is stale: run npx tsx scripts/readme-claims.ts').toBe(expected);
  });

  it('moves with the numbers: a run near the published staircase reproduces every whole-call step', () => {
    const near = makeResults({ seed: 'near', commitDate: '2026-09-01T10:00:00Z' });
    const paragraph = reproductionParagraph(near, makeAnchorFigures());
    expect(paragraph).toContain('Four reproduce: whole call, rederive ÷ shared (3.38× here, 3.37× published)');
    expect(paragraph).not.toMatch(/do not|comes out|cheap on purpose|bounded by the timer/);
    const steep = makeResults({
      seed: 'steep',
      commitDate: '2026-09-01T10:00:00Z',
      strategies: { rederive: { callP50Us: 24_000, catalogueP50Us: 22_700 } },
    });
    const steepParagraph = reproductionParagraph(steep, makeAnchorFigures());
    expect(steepParagraph).toMatch(/whole call, rederive ÷ shared is steeper \(10\.01× here, 3\.37× published\)/);
    expect(steepParagraph).toContain('which is why the first step comes out steeper');
  });

  it('replaces only its block, and refuses a README without one', () => {
    const readme = `# x\n\nbefore\n${CLAIMS_START}\nold\n${CLAIMS_END}\nafter\n`;
    expect(withClaims(readme, 'new')).toBe(`# x\n\nbefore\n${CLAIMS_START}\nnew\n${CLAIMS_END}\nafter\n`);
    expect(() => withClaims('# no markers', 'new')).toThrow(/no <!-- reproduction:start/);
  });
});
