import type { ToolResult } from '../../kernel/index.js';
import type { Observation } from './column.js';
import { describeThrownWithName } from '../../kernel/thrown-value.js';

/** A kernel ToolResult as an observation; the cause comes from where the column can see it (audit trail or wire). */
export function observeResult(result: ToolResult, cause: string | undefined): Observation {
  if (result.status === 'succeeded') return { outcome: 'succeeded' };
  return {
    outcome: 'refused',
    status: result.status,
    code: result.code,
    ...(cause === undefined ? {} : { cause }),
    detail: result.message,
  };
}

/** A path that broke rather than answered. */
export function observeError(error: unknown): Observation {
  return { outcome: 'error', detail: describeThrownWithName(error) };
}
