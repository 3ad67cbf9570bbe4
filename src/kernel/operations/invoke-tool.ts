import { RESOLVED, isAbortError, watchSettlement } from '../abort.js';
import { AuditUnavailable } from '../audit/audit-trail.js';
import { authorize, canDiscover } from '../authority/authorize.js';
import type { Decision } from '../authority/authorize.js';
import type { PreparedContext } from '../authority/prepared-context.js';
import type { AvailableAuthority } from '../authority/resolve-authority.js';
import type { TurnLease } from '../authority/turn-lease.js';
import { parseRequirement, safeParseToolCall, safeParseToolResult } from '../contracts/compiled-contracts.js';
import {
  ARGUMENTS_TOO_DEEP,
  ARGUMENT_LIMITS,
  ContractViolation,
  addressKey,
  argumentsTooDeepMessage,
} from '../contracts/index.js';
import type { JsonObject, ParsedToolCall, Requirement, ToolCall, ToolResult } from '../contracts/index.js';
import { deepFreeze } from '../registry/deep-freeze.js';
import type { RegisteredTool } from '../registry/tool-registry.js';
import type { UnavailableCause } from '../refusal-codes.js';
import { boundRefusalMessage } from '../refusal-message.js';
import { describeThrown } from '../thrown-value.js';
import { REFUSAL_UNRECORDED, enterOperation, malformed, recordInterrupted, recordRefusal } from './enter-operation.js';
import type { CallRef, EnteredTurn, Refusal, Refused } from './enter-operation.js';
import { markStep } from '../observability/spans.js';
import type { SpanSink } from '../observability/spans.js';
import type { KernelCore, OperationOptions } from './kernel-core.js';

const NEVER_ABORTED = new AbortController().signal;

/**
 * A call checked against its contract: the parsed call, or the refusal, and in both cases who to name in the record.
 */
type CheckedCall =
  | { readonly call: ToolCall; readonly ref: CallRef; readonly refusal?: undefined }
  | { readonly call?: undefined; readonly ref: CallRef; readonly refusal: Refusal<'invalid_request'> };

/**
 * The call's contract. A call that fails it is still recorded by its id and
 * tool where those are well formed, by placeholder where not: untrusted
 * material never enters the trail unchecked. Arguments nested past
 * ARGUMENT_LIMITS.maxDepth are refused before anything walks them
 * recursively (cause `arguments_too_deep`); a throw from the contract check
 * (a hostile getter) is a malformed call too, refused and recorded, not an
 * error thrown out.
 */
function checkCall(input: unknown): CheckedCall {
  let parsed: ReturnType<typeof safeParseToolCall> | undefined;
  let thrown: unknown;
  try {
    parsed = safeParseToolCall(input);
  } catch (error) {
    thrown = error;
  }
  if (parsed?.success === true) return { call: parsed.data, ref: parsed.data };
  const raw = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  const id = typeof raw.id === 'string' && raw.id.length > 0 && raw.id.length <= 256 ? raw.id : 'invalid-call';
  const tool = typeof raw.tool === 'string' && /^[A-Za-z0-9_.-]{1,128}$/.test(raw.tool) ? raw.tool : 'invalid-tool';
  if (parsed !== undefined && 'tooDeep' in parsed) return { ref: { id, tool }, refusal: TOO_DEEP_REFUSAL };
  const error = parsed === undefined ? thrown : new ContractViolation('ToolCall', parsed.error.issues);
  return { ref: { id, tool }, refusal: malformed('invalid_request', error) };
}

const TOO_DEEP_REFUSAL: Refusal<'invalid_request'> = Object.freeze({
  status: 'denied',
  code: 'invalid_request',
  message: argumentsTooDeepMessage(ARGUMENT_LIMITS.maxDepth),
  cause: ARGUMENTS_TOO_DEEP,
});

/**
 * One mediated call, SPEC §1.6, in order. Every refusal is recorded as a
 * `tool.invoked` event; the authorization decision is a decision record
 * written before the handler runs.
 *
 * Not an async function: the call's own promise is mediate's (or the
 * refusal's), not one more wrapped around it. With no span sink the kernel
 * has nothing to do once mediate answers, and an async frame here was 696
 * bytes a call for that nothing (ADR 0087). A throw from the entry (a
 * failing lease store's) still rejects the returned promise.
 */
export function invokeTool(
  core: KernelCore,
  contextInput: unknown,
  callInput: unknown,
  options: OperationOptions = {},
): Promise<ToolResult> {
  core.counters.invocations++;
  if (core.spans !== undefined) return invokeToolTimed(core, core.spans, contextInput, callInput, options);
  try {
    const answer = answerCall(core, checkCall(callInput), contextInput, options.signal);
    return answer instanceof Promise ? answer : Promise.resolve(answer);
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * invokeTool under a span sink: the call span opens on arrival, since
 * validating the context and the call is mediation the kernel adds, and
 * closes when the call is answered. A call with an invalid context or a
 * malformed call has no trustworthy id to key a span by, and records none.
 */
async function invokeToolTimed(
  core: KernelCore,
  spans: SpanSink,
  contextInput: unknown,
  callInput: unknown,
  options: OperationOptions,
): Promise<ToolResult> {
  const start = spans.now();
  const checked = checkCall(callInput);
  let spanId = checked.call?.id;
  markStep(spans, 'call.contract', spanId);
  try {
    return await answerCall(core, checked, contextInput, options.signal, () => {
      spanId = undefined;
    });
  } finally {
    if (spanId !== undefined) spans.record('kernel.tool.invoke', spanId, start, spans.now());
  }
}

/**
 * Steps 1–3 (context, call contract and trace, authority, the turn's registry), then mediate; `unkeyed` is told when
 * the context could not be prepared, so nothing is keyed by the call's id.
 */
function answerCall(
  core: KernelCore,
  checked: CheckedCall,
  contextInput: unknown,
  signal: AbortSignal | undefined,
  unkeyed?: () => void,
): ToolResult | Promise<ToolResult> {
  const entering = enterOperation(core, contextInput, {
    type: 'tool.invoked',
    reach: 'catalogue',
    call: checked.ref,
    spanId: checked.call?.id,
    signal,
    objection: checked.refusal,
    traceId: checked.call?.traceId,
  });
  if (entering instanceof Promise)
    return entering.then((entered) => answerEntered(core, checked, entered, signal, unkeyed));
  return answerEntered(core, checked, entering, signal, unkeyed);
}

function answerEntered(
  core: KernelCore,
  checked: CheckedCall,
  entered: EnteredTurn | Refused<string>,
  signal: AbortSignal | undefined,
  unkeyed: (() => void) | undefined,
): ToolResult | Promise<ToolResult> {
  if (!entered.refused) return mediate(core, entered, checked.call!, signal);
  if (entered.prepared === undefined) unkeyed?.();
  const { refusal } = entered;
  return kernelResult(entered.prepared, checked.ref, refusal.status, refusal.code, refusal.message);
}

/**
 * Steps 4–10 of a call whose context, contract, authority and registry are in hand. Not an async function: a refusal
 * is its record's promise, and an allowed call is the handler's run with the outcome chained after it. As an async
 * function, mediate held every step's locals in a generator for the length of the handler's run: 874 of the 8,919
 * bytes a bridge call allocated (`node --no-turbo-inlining --import tsx scripts/call-allocation.ts`, at fe427bf;
 * ADR 0087).
 */
function mediate(
  core: KernelCore,
  entered: EnteredTurn,
  call: ToolCall,
  signal: AbortSignal | undefined,
): Promise<ToolResult> {
  const { prepared, lease, authority, registry } = entered;
  const { spans } = core;

  // 4. Registered, and in an enabled namespace.
  const entry = registry.get(call.tool);
  if (entry === undefined) return refuse(core, entered, call, unavailable(call, 'not_registered'));
  const { definition } = entry;
  if (!prepared.enabledNamespaces.has(definition.namespace))
    return refuse(core, entered, call, unavailable(call, 'namespace_disabled'));
  markStep(spans, 'lookup', call.id);

  // 5. Discovery on the declared ceiling: a hidden tool and a missing one look alike.
  const discoverStart = spans === undefined ? 0 : spans.now();
  const discovery = canDiscover(authority, prepared, definition.requiredCapability, lease.latestNowMs);
  if (spans !== undefined) spans.record('kernel.tool.discover', call.id, discoverStart, spans.now());
  markStep(spans, 'discover', call.id);
  if (discovery !== 'allowed') return refuse(core, entered, call, unavailable(call, discovery));

  // 6. The tool parses its own arguments; the parsed call is frozen before anyone else sees it.
  const parsed = parseArguments(entry, call);
  if (isRefusal(parsed)) return refuse(core, entered, call, parsed);
  markStep(spans, 'arguments', call.id);

  // 7. The call's concrete requirement, which must stay inside the declared ceiling.
  const requirement = resolveRequirement(entry, prepared, parsed);
  if (isRefusal(requirement)) return refuse(core, entered, call, requirement);
  markStep(spans, 'requirement', call.id);

  // 8. Authorize and consume; the decision record is written before anything runs.
  const deciding = decide(core, entered, call, requirement, signal);
  if (!(deciding instanceof Promise))
    return runDecided(core, entered, call, parsed, entry, requirement, deciding, signal);
  return deciding.then((decision) => runDecided(core, entered, call, parsed, entry, requirement, decision, signal));
}

/**
 * Steps 9 and 10 of a decided call: a refusal recorded and answered; an allowed call's handler raced against the
 * caller's signal, its result checked against the contract, then its outcome recorded.
 */
function runDecided(
  core: KernelCore,
  entered: EnteredTurn,
  call: ToolCall,
  parsed: ParsedToolCall,
  entry: RegisteredTool,
  requirement: Requirement,
  decision: Decision | Refusal,
  signal: AbortSignal | undefined,
): Promise<ToolResult> {
  if (isRefusal(decision)) return refuse(core, entered, call, decision);
  return runHandler(core, entered.prepared, call, parsed, entry, entered.lease, signal).then((result) =>
    recordOutcome(core, entered, call, requirement, decision, result),
  );
}

/**
 * 10. The outcome, stamped with the catalogue this turn published. A sink that can hold it writes it after the answer
 * (ADR 0054: its decision record is already in the sink); any other is written now, a synchronous one not awaited.
 * Written straight into the event, in the order the fields form had.
 */
function recordOutcome(
  core: KernelCore,
  entered: EnteredTurn,
  call: ToolCall,
  requirement: Requirement,
  decision: Decision,
  result: ToolResult,
): ToolResult | Promise<ToolResult> {
  const { prepared, lease } = entered;
  // The result's contract was the handler run's last step (runHandler).
  markStep(core.spans, 'result.contract', call.id);
  const outcome = core.trail.open(prepared, 'tool.invoked', result.status);
  outcome.tool = call.tool;
  outcome.operationId = call.id;
  outcome.reason = result.status === 'succeeded' ? 'allowed' : result.code;
  outcome.grantId = decision.grantId;
  outcome.consumed = decision.consumed;
  outcome.source = 'kernel';
  outcome.resource = requirement.resource;
  outcome.action = requirement.action;
  if (lease.catalogHash !== undefined) outcome.catalogHash = lease.catalogHash;
  const written = core.trail.outcomeAfterAnswer(core.trail.seal(outcome));
  if (written === undefined) return outcomeRecorded(core, call, result);
  return written.then(() => outcomeRecorded(core, call, result));
}

function outcomeRecorded(core: KernelCore, call: ToolCall, result: ToolResult): ToolResult {
  markStep(core.spans, 'outcome.record', call.id);
  return result;
}

function isRefusal<T extends object>(value: T | Refusal): value is Refusal {
  return 'status' in value;
}

function unavailable(call: ToolCall, cause: UnavailableCause): Refusal {
  return { status: 'denied', code: 'tool_unavailable', message: `tool ${call.tool} is not available`, cause };
}

function parseArguments(entry: RegisteredTool, call: ToolCall): ParsedToolCall | Refusal {
  try {
    const parsed = deepFreeze(entry.parseArguments(call.arguments) as JsonObject);
    // The call's five fields named (its contract is strict), not spread: a literal V8 builds with one shape.
    return Object.freeze({
      id: call.id,
      tool: call.tool,
      arguments: parsed,
      traceId: call.traceId,
      requestedAt: call.requestedAt,
    });
  } catch (error) {
    return {
      status: 'failed',
      code: 'invalid_tool_arguments',
      message: `invalid arguments for ${call.tool}: ${describeThrown(error)}`,
    };
  }
}

function resolveRequirement(
  entry: RegisteredTool,
  prepared: PreparedContext,
  parsed: ParsedToolCall,
): Requirement | Refusal {
  const ceiling = entry.definition.requiredCapability;
  let requirement: Requirement = ceiling;
  if (entry.resolveRequirement !== undefined) {
    try {
      requirement = parseRequirement(entry.resolveRequirement(prepared.context, parsed));
    } catch (error) {
      return {
        status: 'failed',
        code: 'tool_requirement_resolution_failed',
        message: 'the tool could not state what this call needs',
        cause: describeThrown(error),
      };
    }
  }
  const owner = requirement.resource.owner;
  const ownerKey = owner === undefined ? prepared.ownerKey : addressKey(owner);
  if (ownerKey !== prepared.ownerKey)
    return { status: 'denied', code: 'invalid_request', message: "the call names an owner other than the context's" };
  if (requirement === ceiling) return requirement;
  const ceilingOwnerKey = ceiling.resource.owner === undefined ? prepared.ownerKey : addressKey(ceiling.resource.owner);
  const inside =
    requirement.action === ceiling.action &&
    requirement.resource.namespace === ceiling.resource.namespace &&
    ownerKey === ceilingOwnerKey &&
    ceiling.resource.path.length <= requirement.resource.path.length &&
    ceiling.resource.path.every((segment, i) => requirement.resource.path[i] === segment);
  if (!inside)
    return {
      status: 'failed',
      code: 'invalid_tool_requirement',
      message: "the call's requirement escapes the tool's declared ceiling",
    };
  return requirement;
}

/**
 * Step 8: the grant walk (and a use consumed) and its decision record. The
 * answer is the decision when it allows, else the refusal to record. A sink
 * that cannot take the decision record stops the call: nothing runs.
 * Synchronous when the walk and the sink are (no bounded grant to consume, a
 * synchronous sink): the common call pays no promise and no await here.
 */
function decide(
  core: KernelCore,
  entered: EnteredTurn,
  call: ToolCall,
  requirement: Requirement,
  signal: AbortSignal | undefined,
): Decision | Refusal | Promise<Decision | Refusal> {
  const { spans } = core;
  const start = spans === undefined ? 0 : spans.now();
  let decided: Decision | Promise<Decision>;
  try {
    core.counters.decisions++;
    const pending = authorize(
      entered.authority,
      entered.prepared,
      requirement,
      core.usage,
      entered.lease.latestNowMs,
      signal,
    );
    decided =
      pending instanceof Promise
        ? pending.then((decision) => recordDecision(core, entered, call, requirement, decision))
        : recordDecision(core, entered, call, requirement, pending);
  } catch (error) {
    return notDecided(core, entered, call, start, signal, error);
  }
  if (decided instanceof Promise) {
    return decided.then(
      (decision) => decisionAnswer(core, call, requirement, start, decision),
      (error: unknown) => notDecided(core, entered, call, start, signal, error),
    );
  }
  return decisionAnswer(core, call, requirement, start, decided);
}

/** The decision record, written before anything runs; a failed write throws (or rejects with) AuditUnavailable. */
function recordDecision(
  core: KernelCore,
  entered: EnteredTurn,
  call: ToolCall,
  requirement: Requirement,
  decision: Decision,
): Decision | Promise<Decision> {
  const { spans } = core;
  markStep(spans, 'authorize', call.id);
  const written = core.trail.decision(
    decisionRecord(core, entered.prepared, entered.authority, call, requirement, decision),
  );
  if (written !== undefined) {
    return written.then(() => {
      markStep(spans, 'decision.record', call.id);
      return decision;
    });
  }
  markStep(spans, 'decision.record', call.id);
  return decision;
}

function decisionAnswer(
  core: KernelCore,
  call: ToolCall,
  requirement: Requirement,
  start: number,
  decision: Decision,
): Decision | Refusal {
  const { spans } = core;
  if (spans !== undefined) spans.record('kernel.authorize', call.id, start, spans.now());
  if (decision.code === 'allowed') return decision;
  return {
    status: 'denied',
    code: decision.code,
    message: `not authorized: ${decision.code}`,
    fields: { failClosed: decision.failClosed, resource: requirement.resource, action: requirement.action },
  };
}

/**
 * The walk or its record did not finish: an abort is recorded and rethrown, a sink that refused the record fails the
 * call closed.
 */
function notDecided(
  core: KernelCore,
  entered: EnteredTurn,
  call: ToolCall,
  start: number,
  signal: AbortSignal | undefined,
  error: unknown,
): Refusal | Promise<never> {
  const { spans } = core;
  if (isAbortError(error, signal)) {
    return (async () => {
      try {
        await recordInterrupted(core, entered.prepared, call, entered.lease);
      } finally {
        if (spans !== undefined) spans.record('kernel.authorize', call.id, start, spans.now());
      }
      throw error;
    })();
  }
  if (spans !== undefined) spans.record('kernel.authorize', call.id, start, spans.now());
  if (!(error instanceof AuditUnavailable)) throw error;
  return {
    status: 'failed',
    code: 'audit_unavailable',
    message: 'the decision could not be recorded; nothing ran',
    fields: { failClosed: true },
  };
}

/**
 * authorization.checked, written straight into the event (no fields object
 * copied over it), its rejections shared rather than mapped to copies: they
 * are the walk's own objects, {grantId, reason} already, frozen already.
 */
function decisionRecord(
  core: KernelCore,
  prepared: PreparedContext,
  authority: AvailableAuthority,
  call: ToolCall,
  requirement: Requirement,
  decision: Decision,
) {
  const event = core.trail.open(prepared, 'authorization.checked', decision.code === 'allowed' ? 'allowed' : 'denied');
  event.tool = call.tool;
  event.operationId = call.id;
  event.resource = requirement.resource;
  event.action = requirement.action;
  event.grantId = decision.grantId;
  event.authorityHash = authority.snapshot.hash;
  event.reason = decision.code;
  event.failClosed = decision.failClosed;
  event.consumed = decision.consumed;
  event.source = 'kernel';
  // The list is the walk's own and its items are each grant's frozen rejection (authorize.ts): frozen here as made, so
  // sealing walks none of it.
  if (decision.rejections.length > 0)
    event.metadata = Object.freeze({ rejected: Object.freeze(decision.rejections) as unknown as JsonObject[] });
  return core.trail.seal(event);
}

async function runHandler(
  core: KernelCore,
  prepared: PreparedContext,
  call: ToolCall,
  parsed: ParsedToolCall,
  entry: RegisteredTool,
  lease: TurnLease,
  signal: AbortSignal | undefined,
): Promise<ToolResult> {
  const { spans } = core;
  const start = spans === undefined ? 0 : spans.now();
  let raw: unknown;
  try {
    if (signal === undefined) {
      // Nobody can abort this call: the handler starts at once, with no hop and no race.
      raw = await entry.invoke(prepared.context, parsed, NEVER_ABORTED);
    } else {
      // The handler starts a microtask later. A caller that has aborted by then
      // is told the call was interrupted, so the handler must not start at all:
      // an effect the caller was told did not happen is worse than none.
      await RESOLVED;
      // What `signal.throwIfAborted()` throws, read through `aborted`: the method is dearer on a request's fresh
      // signal (ADR 0086).
      if (signal.aborted) throw signal.reason;
      // The wait is on the handler's own promise, not on a promise chained after the hop: a handler that answers at
      // once has settled by the wait's one hop, so no race is made. Chained (`Promise.resolve().then(invoke)`), the
      // race went seven hops: 1,635 of the 9,032 bytes a bridge call allocated were its hops and closures (sampling
      // heap profile, 20,000 calls).
      // Watched, a hop, its outcome read: in this frame, where a function of their own made a frame and a promise of
      // 681 bytes a call; the watch is 249 (`node --no-turbo-inlining --import tsx scripts/call-allocation.ts`, at
      // fe427bf and after; ADR 0087).
      const watched = watchSettlement(entry.invoke(prepared.context, parsed, signal));
      await RESOLVED;
      const outcome = watched.outcome(signal);
      raw = outcome instanceof Promise ? await outcome : outcome;
    }
  } catch (error) {
    if (isAbortError(error, signal)) {
      await recordInterrupted(core, prepared, call, lease);
      throw error;
    }
    return kernelResult(
      prepared,
      call,
      'failed',
      'tool_execution_failed',
      `tool ${call.tool} failed: ${describeThrown(error)}`,
    );
  } finally {
    if (spans !== undefined) spans.record('kernel.tool.handler', call.id, start, spans.now());
    markStep(spans, 'handler', call.id);
  }
  let checked: ReturnType<typeof safeParseToolResult>;
  try {
    checked = safeParseToolResult(raw);
  } catch (error) {
    // Output nested past the stack's depth (an echo of deep arguments) cannot be validated, so it is not delivered.
    return kernelResult(
      prepared,
      call,
      'failed',
      'invalid_tool_result',
      `tool ${call.tool} returned a result that could not be validated: ${describeThrown(error)}`,
    );
  }
  if (!checked.success) {
    return kernelResult(
      prepared,
      call,
      'failed',
      'invalid_tool_result',
      `tool ${call.tool} returned a malformed result: ` +
        `${new ContractViolation('ToolResult', checked.error.issues).message}`,
    );
  }
  const result = checked.data;
  if (result.callId !== call.id || result.tool !== call.tool) {
    return kernelResult(
      prepared,
      call,
      'failed',
      'invalid_tool_result',
      `tool ${call.tool} answered for another call or tool`,
    );
  }
  return result;
}

/**
 * A result the kernel made: a refusal's message bounded, stamped with the context's instant (or, with no valid context,
 * the clock's).
 */
function kernelResult(
  prepared: PreparedContext | undefined,
  call: CallRef,
  status: 'denied' | 'failed',
  code: string,
  message: string,
): ToolResult {
  return {
    status,
    code,
    message: boundRefusalMessage(message),
    callId: call.id,
    tool: call.tool,
    completedAt: prepared?.context.now ?? new Date().toISOString(),
  };
}

/**
 * Records a refusal after the turn's registry is in hand, and answers the caller with it: `audit_unavailable` if the
 * record could not be written.
 */
async function refuse(core: KernelCore, entered: EnteredTurn, call: ToolCall, refusal: Refusal): Promise<ToolResult> {
  const written = recordRefusal(core, { type: 'tool.invoked', call }, entered.prepared, entered.lease, refusal);
  const recorded = typeof written === 'boolean' ? written : await written;
  markStep(core.spans, 'outcome.record', call.id);
  const answered = recorded ? refusal : REFUSAL_UNRECORDED;
  return kernelResult(entered.prepared, call, answered.status, answered.code, answered.message);
}
