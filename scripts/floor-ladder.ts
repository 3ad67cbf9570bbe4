/**
 * costlab − floor priced mechanism by mechanism (bench/transports/floor-ladder.ts, ADRs 0085, 0088), in memory, over
 * stdio and over http-node, alone: the passes `npm run bench` makes after its transport rounds, without the rest of
 * the bench. Prints the report's tables and drawings. Names after the flags run those ladders only.
 *
 *   npx tsx scripts/floor-ladder.ts [--rounds 200] [--calls 10] [--priming 5000] [in-memory] [stdio] [http-node]
 */
import { ladderText } from '../bench/markdown/ladder-markdown.js';
import { LADDER_TRANSPORTS, MIN_PAIRED_ROUNDS } from '../bench/results/results-schema.js';
import { runFloorLadder } from '../bench/transports/floor-ladder.js';
import { wholeNumberFlags } from './whole-number-flags.js';

const { rounds, calls, priming, names } = wholeNumberFlags(
  'floor-ladder',
  {
    rounds: { default: 200, least: MIN_PAIRED_ROUNDS },
    calls: { default: 10, least: 1 },
    priming: { default: 5000, least: 0 },
  },
  LADDER_TRANSPORTS,
);

for (const transport of LADDER_TRANSPORTS.filter((name) => names.length === 0 || names.includes(name))) {
  const ladder = await runFloorLadder({
    transport,
    rounds,
    callsPerRound: calls,
    primingCalls: priming,
    onRound: (done) => {
      if (done % 50 === 0 || done === rounds)
        process.stderr.write(`floor ladder, ${transport}: round ${done}/${rounds}\n`);
    },
  });
  process.stdout.write(`${ladderText(ladder).trim()}\n\n`);
}
