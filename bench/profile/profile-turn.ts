/**
 * One turn of the reference world, driven the way `costlab demo` drives it
 * (open the lease, list, every declared attempt, close), for a profiler to
 * watch. Each result is checked against the attempt's expected outcome: a
 * profile of a workload that silently stopped doing what it claims (every
 * call refused, say) would show the wrong hot path with full confidence.
 */
import type { MediationKernel } from '../../src/kernel/index.js';
import { worldContext } from '../../src/world/index.js';
import { TURN_ATTEMPTS } from '../world/workload.js';

class WorkloadOutcomeMismatch extends Error {
  override readonly name = 'WorkloadOutcomeMismatch';
  constructor(
    readonly turn: number,
    readonly tool: string,
    readonly expected: string,
    readonly actual: string,
  ) {
    super(`turn ${turn}: ${tool} answered ${actual}, the workload declares ${expected}`);
  }
}

function outcomeLabel(status: string, code: string | undefined): string {
  return code === undefined ? status : `${status} ${code}`;
}

/** Runs turn `turn` (its ids are unique per turn, so concurrent turns hold separate leases). Returns the calls made. */
export async function driveProfileTurn(kernel: MediationKernel, turn: number): Promise<number> {
  const context = worldContext(turn);
  const scope = await kernel.openTurnAuthority(context);
  try {
    await kernel.listTools(context);
    let calls = 0;
    for (const attempt of TURN_ATTEMPTS) {
      calls++;
      const result = await kernel.invokeTool(context, {
        id: `turn-${turn}-call-${calls}`,
        tool: attempt.tool,
        arguments: attempt.arguments,
        traceId: attempt.foreignTrace ? 'trace-other' : context.traceId,
        requestedAt: context.now,
      });
      const code = result.status === 'succeeded' ? undefined : result.code;
      if (result.status !== attempt.expect.status || code !== attempt.expect.code) {
        throw new WorkloadOutcomeMismatch(
          turn,
          attempt.tool,
          outcomeLabel(attempt.expect.status, attempt.expect.code),
          outcomeLabel(result.status, code),
        );
      }
    }
    return calls;
  } finally {
    scope.close();
  }
}
