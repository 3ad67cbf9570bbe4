import { prepareContext } from '../authority/prepared-context.js';
import { ContractViolation, IdSchema, ToolNameSchema } from '../contracts/index.js';
import type { ToolResult } from '../contracts/index.js';
import { isFailClosed } from '../refusal-codes.js';
import type { EnvelopeCause, RefusalCode } from '../refusal-codes.js';
import { boundRefusalMessage } from '../refusal-message.js';
import type { KernelCore } from './kernel-core.js';

/** What an envelope (the MCP bridge) knows about a call it refused: no arguments, which it may have refused for their size. */
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
export async function recordEnvelopeRefusal(core: KernelCore, contextInput: unknown, call: EnvelopeCall, refusal: EnvelopeRefusal): Promise<ToolResult> {
  // The name and id come from a harness; ones that fail their contract are recorded by placeholder, not trusted into the trail.
  const tool = ToolNameSchema.safeParse(call.tool).success ? call.tool : 'invalid-tool';
  const callId = IdSchema.safeParse(call.id).success ? call.id : 'invalid-call';
  // The message may quote what the harness sent (a name of any length).
  const message = boundRefusalMessage(refusal.message);
  const fields = {
    tool,
    operationId: callId,
    reason: refusal.code,
    cause: refusal.cause,
    source: 'envelope',
    ...(isFailClosed(refusal.code) ? { failClosed: true } : {}),
  } as const;
  let prepared;
  try {
    prepared = prepareContext(contextInput);
  } catch (error) {
    const detail = boundRefusalMessage(error instanceof Error ? error.message : String(error));
    await core.trail.outcome(
      core.trail.invalidContextEvent('tool.invoked', { ...fields, metadata: { message: detail, fields: error instanceof ContractViolation ? [...error.fields] : [] } }),
    );
    return { status: refusal.status, code: refusal.code, message, callId, tool, completedAt: new Date().toISOString() };
  }
  const catalogHash = core.leases.held(prepared.turnKey)?.catalogHash;
  await core.trail.outcome(core.trail.event(prepared, 'tool.invoked', refusal.status, { ...fields, ...(catalogHash === undefined ? {} : { catalogHash }) }));
  return { status: refusal.status, code: refusal.code, message, callId, tool, completedAt: prepared.context.now };
}
