/**
 * Reading an MCP tools/call result as an observation. The wire carries the
 * kernel's outcome (`_meta {status, code, callId}`) and, deliberately, not
 * the refusal's cause: a hidden tool and a missing one must look alike to the
 * caller (SPEC §1.3, §1.6). The judge still needs the cause, so the harness
 * reads it where the host records it — the audit trail — joined on the call
 * id the wire does carry, exactly as the embedded runtime does.
 */
import type { Observation } from './column.js';

/** What the host's trail recorded for one call: its reason (the code) and cause. */
export interface RecordedRefusal {
  readonly reason?: string;
  readonly cause?: string;
}

/** Finds the host's `tool.invoked` record of a call by its id. */
export type TrailLookup = (callId: string) => RecordedRefusal | undefined | Promise<RecordedRefusal | undefined>;

interface WireResult {
  readonly isError?: unknown;
  readonly _meta?: Record<string, unknown> | undefined;
}

export async function observeWireResult(result: WireResult, trail: TrailLookup): Promise<Observation> {
  const meta = result._meta ?? {};
  const status = meta.status;
  const callId = typeof meta.callId === 'string' ? meta.callId : undefined;
  if (status === 'succeeded' && result.isError !== true) return { outcome: 'succeeded' };
  if ((status === 'denied' || status === 'failed') && result.isError === true && typeof meta.code === 'string') {
    const recorded = callId === undefined ? undefined : await trail(callId);
    if (recorded?.reason !== undefined && recorded.reason !== meta.code) {
      return {
        outcome: 'error',
        detail: `the wire said ${meta.code} but the trail recorded ${recorded.reason} for ${callId}`,
      };
    }
    return {
      outcome: 'refused',
      status,
      code: meta.code,
      ...(recorded?.cause === undefined ? {} : { cause: recorded.cause }),
    };
  }
  return {
    outcome: 'error',
    detail: `a tools/call result without the kernel's outcome in _meta (${JSON.stringify(meta)})`,
  };
}
