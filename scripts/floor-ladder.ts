/**
 * costlab − floor in memory, priced mechanism by mechanism (bench/transports/floor-ladder.ts, ADR 0085), alone: the
 * pass `npm run bench` makes after its transport rounds, without the rest of the bench. Prints the report's table
 * and drawing.
 *
 *   npx tsx scripts/floor-ladder.ts [--rounds 200] [--calls 10] [--priming 5000]
 */
import { ladderText } from '../bench/markdown/ladder-markdown.js';
import { MIN_PAIRED_ROUNDS } from '../bench/results/results-schema.js';
import { runFloorLadder } from '../bench/transports/floor-ladder.js';
import { wholeNumberFlags } from './whole-number-flags.js';

const { rounds, calls, priming } = wholeNumberFlags('floor-ladder', {
  rounds: { default: 200, least: MIN_PAIRED_ROUNDS },
  calls: { default: 10, least: 1 },
  priming: { default: 5000, least: 0 },
});

const ladder = await runFloorLadder({
  rounds,
  callsPerRound: calls,
  primingCalls: priming,
  onRound: (done) => {
    if (done % 50 === 0 || done === rounds) process.stderr.write(`floor ladder: round ${done}/${rounds}\n`);
  },
});
process.stdout.write(`${ladderText(ladder).trim()}\n`);
