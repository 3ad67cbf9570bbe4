/**
 * The README's paragraph on which published ratios reproduce, generated from the
 * committed run (`results/latest.json`) and the published figures, so the claim
 * moves with the numbers: `costlab bench --commit-results` rewrites it, and
 * `test/markdown/readme-claims.test.ts` fails when the README and the committed
 * run disagree. The paragraph sits between two markers in README.md.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { formatDuration, formatRatio, formatShare } from '../format/index.js';
import { parseAnchorFigures, parseResults } from '../results/results-schema.js';
import type { AnchorFigures, Results } from '../results/results-schema.js';
import { ratioComparisons, REPRODUCES_WITHIN } from './published-comparison.js';
import { CLOSE } from './staircase-reading.js';
import { reproducedFigures, staircaseVerdicts, TOLERANCES } from '../verdicts/reproduction-verdicts.js';
import type { FigureVerdict } from '../verdicts/reproduction-verdicts.js';
import { formatFigure, formatPublished, sharedShareGapIsForm, worldsOf } from './two-worlds.js';
import { publishedShareForms, shareForms } from '../verdicts/share-forms.js';

export const CLAIMS_START =
  '<!-- reproduction:start (generated from results/latest.json by costlab bench --commit-results; do not edit) -->';
export const CLAIMS_END = '<!-- reproduction:end -->';

const COUNT_WORDS = ['None', 'One', 'Two', 'Three', 'Four'];

function list(items: readonly string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/**
 * Which world reproduces which figure, when the run measured the
 * publisher-shaped world beside the reference world: one sentence per world.
 */
function worldsSentences(results: Results, figures: AnchorFigures): string[] {
  if (results.publisherWorld === undefined) return [];
  const sentences = [`Two worlds ran (${TOLERANCES}).`];
  for (const world of worldsOf(results)) {
    const { held, missed } = reproducedFigures(staircaseVerdicts(world, figures));
    const shown = (row: FigureVerdict): string => `${row.figure} (${formatFigure(row, row.ours)})`;
    const missedOne = (row: FigureVerdict): string =>
      `${row.figure} is ${row.verdict} (${formatFigure(row, row.ours)} here, ${formatPublished(row)} published)`;
    sentences.push(
      `The ${world.name} world (${world.about}) ` +
        `reproduces ${held.length === 0 ? 'none of the figures' : list(held.map(shown))}${
          missed.length === 0 ? '' : `; ${list(missed.map(missedOne))}`
        }.`,
    );
    if (sharedShareGapIsForm(world, figures)) {
      sentences.push(
        `By medians its \`shared\` share is ${formatShare(shareForms(world).byMedians.shared)}, against the ` +
          `${formatShare(publishedShareForms(figures).byMedians.shared)} the publisher's own medians give: the ` +
          "gap is in how the publisher's share was summed, which the report's two-worlds section measures.",
      );
    }
  }
  sentences.push('In the reference world:');
  return sentences;
}

const ratiosOf = (row: { readonly ours: number; readonly published: number }): string =>
  `${formatRatio(row.ours)} here, ${formatRatio(row.published)} published`;

export function reproductionParagraph(results: Results, figures: AnchorFigures): string {
  const rows = ratioComparisons(results.staircase, figures);
  const held = rows.filter((row) => row.verdict === 'reproduces');
  const missed = rows.filter((row) => row.verdict !== 'reproduces');
  const s = results.strategies;
  const published = (name: 'rederive' | 'shared' | 'turn') => figures.staircase.find((step) => step.strategy === name)!;
  const restUs = s.shared.call.p50Us - s.shared.segments.catalogue.p50Us;
  const publishedRestUs = (published('shared').wholeCallMs - published('shared').catalogueSegmentMs) * 1000;
  const copyOurs = s.rederive.segments.catalogue.p50Us / s.shared.segments.catalogue.p50Us;
  const copyTheirs = published('rederive').catalogueSegmentMs / published('shared').catalogueSegmentMs;
  const env = results.environment;
  const sentences = [
    `At the committed run (\`results/latest.json\`: commit \`${results.commit.slice(0, 10)}\`, ` +
      `\`${results.command}\`, ${env.cpuModel} × ${env.cores} cores, Node ${env.node}), a ratio counts as ` +
      `reproduced ${REPRODUCES_WITHIN} of the published one.`,
    ...worldsSentences(results, figures),
    held.length === 0
      ? 'None of the step ratios reproduces.'
      : `${held.length === 1 ? 'One reproduces' : `${COUNT_WORDS[held.length]} reproduce`}: ` +
        `${list(held.map((row) => `${row.step} (${ratiosOf(row)})`))}.`,
  ];
  if (missed.length > 0) {
    sentences.push(
      `${missed.length === 1 ? 'One does not' : `${COUNT_WORDS[missed.length]} do not`}: ` +
        `${list(missed.map((row) => `${row.step} is ${row.verdict} (${ratiosOf(row)})`))}.`,
    );
  }
  const first = rows[0]!;
  const cheapRest = restUs < publishedRestUs / CLOSE;
  sentences.push(
    `Why: a step removes catalogue work only, so its ratio grows with how much it cheapens catalogue resolution ` +
      `and with how small the rest of the call is beside it. Sharing entries cuts the catalogue ` +
      `segment ${formatRatio(copyOurs)} here against ${formatRatio(copyTheirs)} published, and under shared the ` +
      `rest of a call is ${formatDuration(restUs)} here against ${formatDuration(publishedRestUs)} published${
        cheapRest ? " (this world's handlers and audit are cheap on purpose, so catalogue resolution weighs more)" : ''
      }${first.verdict === 'reproduces' ? '.' : `, which is why the first step comes out ${first.verdict}.`}`,
  );
  const atFloor = s.turn.segments.catalogue.p50Us <= 2 * results.timerOverheadUs;
  sentences.push(
    `${
      atFloor
        ? `Under turn the catalogue segment is ${formatDuration(s.turn.segments.catalogue.p50Us)}, within two ` +
          `clock reads (${formatDuration(results.timerOverheadUs)} each), so its ratio to shared is bounded by the ` +
          `timer rather than the kernel. `
        : `Under turn the catalogue segment is ${formatDuration(s.turn.segments.catalogue.p50Us)} ` +
          `(published ${formatDuration(published('turn').catalogueSegmentMs * 1000)}). `
    }Absolute times belong to the machine: a call is ${formatDuration(s.rederive.call.p50Us)} ` +
      `/ ${formatDuration(s.shared.call.p50Us)} / ${formatDuration(s.turn.call.p50Us)} here ` +
      `against ${formatDuration(published('rederive').wholeCallMs * 1000)} ` +
      `/ ${formatDuration(published('shared').wholeCallMs * 1000)} ` +
      `/ ${formatDuration(published('turn').wholeCallMs * 1000)} published.`,
  );
  return sentences.join(' ');
}

/** The README with its paragraph regenerated; throws when the markers are missing. */
export function withClaims(readme: string, paragraph: string): string {
  const start = readme.indexOf(CLAIMS_START);
  const end = readme.indexOf(CLAIMS_END);
  if (start === -1 || end === -1 || end < start)
    throw new Error(`README.md has no ${CLAIMS_START} … ${CLAIMS_END} block`);
  return `${readme.slice(0, start + CLAIMS_START.length)}\n${paragraph}\n${readme.slice(end)}`;
}

export interface ClaimsSources {
  readonly repoRoot: string;
  readonly resultsFile?: string;
  readonly anchorsFile?: string;
}

export async function expectedReadme(
  sources: ClaimsSources,
): Promise<{ current: string; expected: string; file: string }> {
  const file = path.join(sources.repoRoot, 'README.md');
  const results = parseResults(
    JSON.parse(await readFile(sources.resultsFile ?? path.join(sources.repoRoot, 'results', 'latest.json'), 'utf8')),
  );
  const figures = parseAnchorFigures(
    JSON.parse(
      await readFile(sources.anchorsFile ?? path.join(sources.repoRoot, 'reference', 'anchor-figures.json'), 'utf8'),
    ),
  );
  const current = await readFile(file, 'utf8');
  return { current, expected: withClaims(current, reproductionParagraph(results, figures)), file };
}

/** Rewrites the README's paragraph; true when it changed. */
export async function updateReadmeClaims(sources: ClaimsSources): Promise<boolean> {
  const { current, expected, file } = await expectedReadme(sources);
  if (current === expected) return false;
  await writeFile(file, expected);
  return true;
}
