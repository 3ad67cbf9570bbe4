import type { CatalogueStrategyName } from '../../kernel/index.js';
import type { Row } from '../rows.js';
import { WorldArena } from '../world/world-arena.js';
import type { ColumnLane, ColumnTurn } from './column.js';

/**
 * A lane whose rows are served in this process: each row gets a fresh arena
 * (its own kernel, clock, grant table and providers, armed by its condition),
 * so no row can leak state into the next, and trusted setup is a direct
 * call on the host's own objects.
 */
export function inProcessLane(
  strategy: CatalogueStrategyName,
  openTurn: (arena: WorldArena, turn: number) => Promise<ColumnTurn>,
): ColumnLane {
  let rows = 0;
  return {
    async openRow(row: Row) {
      const arena = new WorldArena({ conditionId: row.condition.id, strategy, traceTag: `${row.id}.${++rows}` });
      return {
        openTurn: (turn) => openTurn(arena, turn),
        async setup(step) {
          arena.apply(step);
        },
        async close() {},
      };
    },
    async close() {},
  };
}
