/**
 * Column `embedded`: a scripted runtime calling the kernel in-process, inside
 * an open turn — the path of a host that embeds the kernel with no MCP in
 * front of it. Refusal causes are read where such a host reads them: from
 * the audit trail, by call id.
 */
import type { MediationKernel } from '../../kernel/index.js';
import type { WorldArena } from '../world/world-arena.js';
import type { Column, ColumnTurn } from './column.js';
import { inProcessLane } from './in-process-lane.js';
import { observeResult } from './observation.js';

/** The part of the kernel an embedding runtime uses. A stand-in may implement it (see the judge's own test). */
export type EmbeddableKernel = Pick<MediationKernel, 'openTurnAuthority' | 'listTools' | 'invokeTool'>;

export interface EmbeddedColumnOptions {
  readonly id?: string;
  /** The kernel the runtime talks to; by default the arena's own. */
  readonly kernelFor?: (arena: WorldArena) => EmbeddableKernel;
}

async function openTurn(arena: WorldArena, kernel: EmbeddableKernel, turn: number): Promise<ColumnTurn> {
  const scope = await kernel.openTurnAuthority(arena.context(turn));
  const listed = await kernel.listTools(arena.context(turn));
  return {
    shown: { tools: listed.tools.map((t) => t.name), catalogHash: listed.catalogHash },
    async call(step, callId) {
      const context = arena.context(turn);
      const result = await kernel.invokeTool(context, {
        id: callId,
        tool: step.tool,
        arguments: step.arguments,
        traceId: context.traceId,
        requestedAt: context.now,
      });
      return observeResult(result, result.status === 'succeeded' ? undefined : arena.recorded(callId)?.cause);
    },
    async close() {
      scope.close();
    },
  };
}

export function embeddedColumn(options: EmbeddedColumnOptions = {}): Column {
  const kernelFor = options.kernelFor ?? ((arena: WorldArena) => arena.kernel);
  return {
    id: options.id ?? 'embedded',
    summary: 'a scripted runtime calling the kernel in-process inside an open turn',
    capabilities: new Set(),
    start: async (strategy) => inProcessLane(strategy, (arena, turn) => openTurn(arena, kernelFor(arena), turn)),
  };
}
