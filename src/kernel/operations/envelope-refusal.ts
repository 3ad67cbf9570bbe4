import { IdSchema, ToolNameSchema } from '../contracts/index.js';
import type { ToolResult } from '../contracts/index.js';
import { isFailClosed } from '../refusal-codes.js';
import type { EnvelopeCause, RefusalCode } from '../refusal-codes.js';
import { boundRefusalMessage } from '../refusal-message.js';
import { REFUSAL_UNRECORDED, enterOperation } from './enter-operation.js';
import type { Refusal } from './enter-operation.js';
import type { KernelCore } from './kernel-core.js';

/**
 * What an envelope (the MCP bridge) knows about a call it refused: no arguments, which it may have refused for their
 * size.
 */
export interface EnvelopeCall {
  readonly id: string;
  readonly tool: string;
}

export interface EnvelopeRefusal {
  readonly status: 'denied' | 'failed';
  readonly code: RefusalCode;
  readonly cause: EnvelopeCause;
  readonly message: string;
}

/**
 * Records a call that an envelope in front of the kernel refused before the
 * kernel was asked (SPEC §2: a name outside the turn's listed catalogue).
 * The refusal goes into the same trail, as a `tool.invoked` event with
 * `source: 'envelope'` and the catalogHash the turn published, so an audit
 * query sees every call a harness made whichever layer answered it. It does
 * not count as an invocation and resolves nothing: no authority, no registry.
 */
export async function recordEnvelopeRefusal(
  core: KernelCore,
  contextInput: unknown,
  call: EnvelopeCall,
  refusal: EnvelopeRefusal,
): Promise<ToolResult> {
  // The name and id come from a harness; ones that fail their contract are recorded by placeholder, not trusted into
  // the trail.
  const ref = {
    tool: ToolNameSchema.safeParse(call.tool).success ? call.tool : 'invalid-tool',
    id: IdSchema.safeParse(call.id).success ? call.id : 'invalid-call',
  };
  // What the envelope refused, whatever the context: an invalid one adds only its own description (metadata).
  const fields = {
    reason: refusal.code,
    cause: refusal.cause,
    source: 'envelope',
    ...(isFailClosed(refusal.code) ? { failClosed: true } : {}),
  } as const;
  const entering = enterOperation(core, contextInput, { type: 'tool.invoked', reach: 'context', call: ref, fields });
  const entered = entering instanceof Promise ? await entering : entering;
  // The message may quote what the harness sent (a name of any length).
  const answer = {
    status: refusal.status,
    code: refusal.code,
    message: boundRefusalMessage(refusal.message),
    callId: ref.id,
    tool: ref.tool,
  };
  // A refusal is answered only once its record is in the trail (ADR 0054); otherwise the call is answered
  // audit_unavailable.
  const unrecorded = {
    ...answer,
    status: REFUSAL_UNRECORDED.status,
    code: REFUSAL_UNRECORDED.code,
    message: REFUSAL_UNRECORDED.message,
  };
  if (entered.refused)
    return {
      ...((entered.refusal as Refusal) === REFUSAL_UNRECORDED ? unrecorded : answer),
      completedAt: new Date().toISOString(),
    };
  const { prepared } = entered;
  // The catalogue the turn published, if a turn is open: this records, it never opens one.
  const catalogHash = core.leases.held(prepared.turnKey)?.catalogHash;
  const recorded = await core.trail.refusal(
    core.trail.event(prepared, 'tool.invoked', refusal.status, {
      tool: ref.tool,
      operationId: ref.id,
      ...fields,
      ...(catalogHash === undefined ? {} : { catalogHash }),
    }),
  );
  return { ...(recorded ? answer : unrecorded), completedAt: prepared.context.now };
}
