/**
 * The staircase run's blocks (ADR 0027): each strategy runs a few turns in a
 * row, and the first turn of a block — after another kernel's block — has
 * its lease open reported apart, as the cold figure. Structure only.
 */
import { describe, expect, it } from 'vitest';
import { runStrategies } from '../../bench/staircase/run-strategies.js';

describe('runStrategies in blocks', () => {
  it(
    'runs the strategies block by block, in order, and reports ' +
      'a cold open only where a block follows another kernel',
    async () => {
      const order: Array<[number, string]> = [];
      const blocks = await runStrategies({
        warmupTurns: 1,
        measuredTurns: 3,
        blockTurns: 2,
        onProgress: (done, total, phase) => order.push([done, `${phase}/${total}`]),
      });
      // Four turns in blocks of two: progress after each round of blocks.
      expect(order).toEqual([
        [2, 'measured/4'],
        [4, 'measured/4'],
      ]);
      for (const name of ['rederive', 'shared', 'turn'] as const) {
        expect(blocks[name].derivationsByTurn).toHaveLength(3);
        expect(blocks[name].turnBoundary.openColdP50Us).toBeGreaterThan(0);
      }
      const turnByTurn = await runStrategies({
        warmupTurns: 0,
        measuredTurns: 2,
        blockTurns: 1,
        strategies: ['shared', 'turn'],
      });
      expect(turnByTurn.turn.turnBoundary.openColdP50Us).toBeUndefined();
      await expect(runStrategies({ warmupTurns: 0, measuredTurns: 1, blockTurns: 0 })).rejects.toThrow(RangeError);
    },
  );

  it("reads each round's lease open from its block's warm turns, one median a round, the cold one apart", async () => {
    const blocks = await runStrategies({
      warmupTurns: 0,
      measuredTurns: 9,
      blockTurns: 3,
      strategies: ['shared', 'turn'],
    });
    for (const name of ['shared', 'turn'] as const) {
      // Nine turns in blocks of three: three rounds, each of two warm opens (the third, first of its block, is cold).
      expect(blocks[name].rounds?.openP50Us).toHaveLength(3);
      expect(blocks[name].rounds?.callP50Us).toHaveLength(3);
    }
    const alone = await runStrategies({ warmupTurns: 0, measuredTurns: 4, blockTurns: 2, strategies: ['turn'] });
    // One lane: no other kernel's block comes between, so every open is warm and a round holds the block's two.
    expect(alone.turn.turnBoundary.openColdP50Us).toBeUndefined();
    expect(alone.turn.rounds?.openP50Us).toHaveLength(2);
  });
});
