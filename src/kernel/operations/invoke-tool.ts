import { isAbortError, raceAbort } from '../abort.js';
import { AuditUnavailable } from '../audit/audit-trail.js';
import type { AuditFields } from '../audit/audit-trail.js';
import { authorize, canDiscover } from '../authority/authorize.js';
import type { Decision } from '../authority/authorize.js';
import { prepareContext } from '../authority/prepared-context.js';
import type { PreparedContext } from '../authority/prepared-context.js';
import type { AvailableAuthority } from '../authority/resolve-authority.js';
import type { TurnLease } from '../authority/turn-lease.js';
import { ContractViolation, RequirementSchema, ToolCallSchema, ToolResultSchema, addressKey } from '../contracts/index.js';
import type { JsonObject, ParsedToolCall, Requirement, ToolCall, ToolResult } from '../contracts/index.js';
import { deepFreeze } from '../registry/deep-freeze.js';
import type { RegisteredTool } from '../registry/tool-registry.js';
import type { ToolRegistry } from '../registry/tool-registry.js';
import type { UnavailableCause } from '../refusal-codes.js';
import { MAX_REFUSAL_FIELDS, boundRefusalMessage } from '../refusal-message.js';
import { describeThrown } from '../thrown-value.js';
import type { KernelCore, OperationOptions } from './kernel-core.js';
import { leaseFor } from './operation-lease.js';

const NEVER_ABORTED = new AbortController().signal;

type Refusal = { status: 'denied' | 'failed'; code: string; message: string; cause?: string; fields?: AuditFields };

function errorMessage(error: unknown): string {
  return describeThrown(error);
}

/** Answers a call whose context or call failed its contract: refused by name, and recorded without trusting either. */
async function refuseMalformed(
  core: KernelCore,
  input: unknown,
  code: 'invalid_context' | 'invalid_request',
  error: unknown,
  prepared?: PreparedContext,
): Promise<ToolResult> {
  const raw = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  const callId = typeof raw.id === 'string' && raw.id.length > 0 && raw.id.length <= 256 ? raw.id : 'invalid-call';
  const tool = typeof raw.tool === 'string' && /^[A-Za-z0-9_.-]{1,128}$/.test(raw.tool) ? raw.tool : 'invalid-tool';
  const message = boundRefusalMessage(errorMessage(error));
  const fields = error instanceof ContractViolation ? error.fields.slice(0, MAX_REFUSAL_FIELDS) : [];
  const fieldsOfEvent = { tool, operationId: callId, reason: code, source: 'kernel', metadata: { message, fields } } as const;
  // A valid context with a malformed call is still a principal's refusal: record who, not nobody.
  await core.trail.outcome(
    prepared === undefined ? core.trail.invalidContextEvent('tool.invoked', fieldsOfEvent) : core.trail.event(prepared, 'tool.invoked', 'denied', fieldsOfEvent),
  );
  return { status: 'denied', code, message, callId, tool, completedAt: prepared?.context.now ?? new Date().toISOString() };
}

/**
 * One mediated call, SPEC §1.6, in order. Every refusal is recorded as a
 * `tool.invoked` event; the authorization decision is a decision record
 * written before the handler runs.
 */
export async function invokeTool(core: KernelCore, contextInput: unknown, callInput: unknown, options: OperationOptions = {}): Promise<ToolResult> {
  core.counters.invocations++;
  // The call span opens on arrival: validating the context and the call is
  // mediation the kernel adds (about 2 µs of a ~9 µs call under `turn`), so
  // it belongs inside the measured call. A malformed call has no trustworthy
  // id to key a span by, and records none.
  const spans = core.spans;
  const start = spans === undefined ? 0 : spans.now();
  let prepared: PreparedContext;
  try {
    prepared = prepareContext(contextInput);
  } catch (error) {
    return refuseMalformed(core, callInput, 'invalid_context', error);
  }
  let parsedCall: ReturnType<typeof ToolCallSchema.safeParse>;
  try {
    parsedCall = ToolCallSchema.safeParse(callInput);
  } catch (error) {
    // The JSON contract is checked recursively: arguments nested past the
    // stack's depth overflow it. That is a malformed call, refused and
    // recorded like any other, not an error thrown out of the kernel.
    return refuseMalformed(core, callInput, 'invalid_request', error, prepared);
  }
  if (!parsedCall.success) return refuseMalformed(core, callInput, 'invalid_request', new ContractViolation('ToolCall', parsedCall.error.issues), prepared);
  const call = parsedCall.data;

  try {
    return await mediate(core, prepared, call, options.signal);
  } finally {
    if (spans !== undefined) spans.record('kernel.tool.invoke', call.id, start, spans.now());
  }
}

async function mediate(core: KernelCore, prepared: PreparedContext, call: ToolCall, signal: AbortSignal | undefined): Promise<ToolResult> {
  const { context } = prepared;
  const { spans } = core;

  // 1. A call from another trace is not this turn's to answer.
  if (call.traceId !== context.traceId) {
    return refuse(core, prepared, call, undefined, { status: 'denied', code: 'trace_mismatch', message: 'the call names another trace' });
  }

  // 2. Authority: held on the turn's lease, or resolved for this one operation.
  let lease: TurnLease;
  try {
    const leased = leaseFor(core, prepared, signal);
    lease = leased instanceof Promise ? await leased : leased;
  } catch (error) {
    // leaseFor rejects only when the caller's signal aborted the wait.
    await interrupted(core, prepared, call, undefined);
    throw error;
  }
  const authority = lease.authority!;
  if (authority.status !== 'available') {
    return refuse(core, prepared, call, lease, {
      status: 'denied',
      code: 'authority_unavailable',
      message: 'authority for this turn is unavailable',
      cause: authority.code,
      fields: { failClosed: true },
    });
  }

  // 3. The effective registry, by the kernel's catalogue strategy.
  let registry: ToolRegistry;
  const catalogueStart = spans === undefined ? 0 : spans.now();
  try {
    const resolved = core.strategy.resolve(lease, prepared, signal);
    registry = resolved instanceof Promise ? await resolved : resolved;
  } catch (error) {
    if (isAbortError(error, signal)) {
      await interrupted(core, prepared, call, lease);
      throw error;
    }
    return refuse(core, prepared, call, lease, { status: 'failed', code: 'tool_catalog_unavailable', message: 'the tool catalogue is unavailable', cause: errorMessage(error) });
  } finally {
    if (spans !== undefined) spans.record('kernel.tool.catalogue', call.id, catalogueStart, spans.now());
  }

  // 4. Registered, and in an enabled namespace.
  const entry = registry.get(call.tool);
  if (entry === undefined) return unavailable(core, prepared, call, lease, 'not_registered');
  const { definition } = entry;
  if (!prepared.enabledNamespaces.has(definition.namespace)) return unavailable(core, prepared, call, lease, 'namespace_disabled');

  // 5. Discovery on the declared ceiling: a hidden tool and a missing one look alike.
  const discoverStart = spans === undefined ? 0 : spans.now();
  const discovery = canDiscover(authority, prepared, definition.requiredCapability, lease.latestNowMs);
  if (spans !== undefined) spans.record('kernel.tool.discover', call.id, discoverStart, spans.now());
  if (discovery !== 'allowed') return unavailable(core, prepared, call, lease, discovery);

  // 6. The tool parses its own arguments; the parsed call is frozen before anyone else sees it.
  let parsed: ParsedToolCall;
  try {
    parsed = Object.freeze({ ...call, arguments: deepFreeze(entry.parseArguments(call.arguments) as JsonObject) });
  } catch (error) {
    return refuse(core, prepared, call, lease, { status: 'failed', code: 'invalid_tool_arguments', message: `invalid arguments for ${call.tool}: ${errorMessage(error)}` });
  }

  // 7. The call's concrete requirement, which must stay inside the declared ceiling.
  const requirement = resolveRequirement(entry, prepared, parsed);
  if ('status' in requirement) return refuse(core, prepared, call, lease, requirement);

  // 8. Authorize and consume; the decision record is written before anything runs.
  const authorizeStart = spans === undefined ? 0 : spans.now();
  let decision: Decision;
  try {
    decision = await decide(core, prepared, call, authority, requirement, lease.latestNowMs, signal);
  } catch (error) {
    if (isAbortError(error, signal)) {
      await interrupted(core, prepared, call, lease);
      throw error;
    }
    if (!(error instanceof AuditUnavailable)) throw error;
    return refuse(core, prepared, call, lease, { status: 'failed', code: 'audit_unavailable', message: 'the decision could not be recorded; nothing ran', fields: { failClosed: true } });
  } finally {
    if (spans !== undefined) spans.record('kernel.authorize', call.id, authorizeStart, spans.now());
  }
  if (decision.code !== 'allowed') {
    return refuse(core, prepared, call, lease, {
      status: 'denied',
      code: decision.code,
      message: `not authorized: ${decision.code}`,
      fields: { failClosed: decision.failClosed, resource: requirement.resource, action: requirement.action },
    });
  }

  // 9. The handler, raced against the caller's signal.
  const result = await runHandler(core, prepared, call, parsed, entry, lease, signal);

  // 10. The outcome, stamped with the catalogue this turn published.
  await core.trail.outcome(
    core.trail.event(prepared, 'tool.invoked', result.status, {
      tool: call.tool,
      operationId: call.id,
      reason: result.status === 'succeeded' ? 'allowed' : result.code,
      grantId: decision.grantId,
      consumed: decision.consumed,
      source: 'kernel',
      resource: requirement.resource,
      action: requirement.action,
      ...(lease.catalogHash === undefined ? {} : { catalogHash: lease.catalogHash }),
    }),
  );
  return result;
}

function resolveRequirement(entry: RegisteredTool, prepared: PreparedContext, parsed: ParsedToolCall): Requirement | Refusal {
  const ceiling = entry.definition.requiredCapability;
  let requirement: Requirement = ceiling;
  if (entry.resolveRequirement !== undefined) {
    try {
      requirement = RequirementSchema.parse(entry.resolveRequirement(prepared.context, parsed));
    } catch (error) {
      return { status: 'failed', code: 'tool_requirement_resolution_failed', message: 'the tool could not state what this call needs', cause: errorMessage(error) };
    }
  }
  const owner = requirement.resource.owner;
  const ownerKey = owner === undefined ? prepared.ownerKey : addressKey(owner);
  if (ownerKey !== prepared.ownerKey) return { status: 'denied', code: 'invalid_request', message: "the call names an owner other than the context's" };
  if (requirement === ceiling) return requirement;
  const ceilingOwnerKey = ceiling.resource.owner === undefined ? prepared.ownerKey : addressKey(ceiling.resource.owner);
  const inside =
    requirement.action === ceiling.action &&
    requirement.resource.namespace === ceiling.resource.namespace &&
    ownerKey === ceilingOwnerKey &&
    ceiling.resource.path.length <= requirement.resource.path.length &&
    ceiling.resource.path.every((segment, i) => requirement.resource.path[i] === segment);
  if (!inside) return { status: 'failed', code: 'invalid_tool_requirement', message: "the call's requirement escapes the tool's declared ceiling" };
  return requirement;
}

async function decide(
  core: KernelCore,
  prepared: PreparedContext,
  call: ToolCall,
  authority: AvailableAuthority,
  requirement: Requirement,
  latestNowMs: number,
  signal: AbortSignal | undefined,
): Promise<Decision> {
  core.counters.decisions++;
  const pending = authorize(authority, prepared, requirement, core.usage, latestNowMs, signal);
  const decision = pending instanceof Promise ? await pending : pending;
  const written = core.trail.decision(
    core.trail.event(prepared, 'authorization.checked', decision.code === 'allowed' ? 'allowed' : 'denied', {
      tool: call.tool,
      operationId: call.id,
      resource: requirement.resource,
      action: requirement.action,
      grantId: decision.grantId,
      authorityHash: authority.snapshot.hash,
      reason: decision.code,
      failClosed: decision.failClosed,
      consumed: decision.consumed,
      source: 'kernel',
      ...(decision.rejections.length === 0 ? {} : { metadata: { rejected: decision.rejections.map((r) => ({ grantId: r.grantId, reason: r.reason })) } }),
    }),
  );
  if (written !== undefined) await written;
  return decision;
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
    // The handler starts a microtask later. A caller that has aborted by then
    // is told the call was interrupted, so the handler must not start at all:
    // an effect the caller was told did not happen is worse than none.
    const started = Promise.resolve().then(() => {
      signal?.throwIfAborted();
      return entry.invoke(prepared.context, parsed, signal ?? NEVER_ABORTED);
    });
    raw = await raceAbort(started, signal);
  } catch (error) {
    if (isAbortError(error, signal)) {
      await interrupted(core, prepared, call, lease);
      throw error;
    }
    return kernelResult(prepared, call, 'failed', 'tool_execution_failed', `tool ${call.tool} failed: ${errorMessage(error)}`);
  } finally {
    if (spans !== undefined) spans.record('kernel.tool.handler', call.id, start, spans.now());
  }
  let checked: ReturnType<typeof ToolResultSchema.safeParse>;
  try {
    checked = ToolResultSchema.safeParse(raw);
  } catch (error) {
    // Output nested past the stack's depth (an echo of deep arguments) cannot be validated, so it is not delivered.
    return kernelResult(prepared, call, 'failed', 'invalid_tool_result', `tool ${call.tool} returned a result that could not be validated: ${errorMessage(error)}`);
  }
  if (!checked.success) {
    return kernelResult(prepared, call, 'failed', 'invalid_tool_result', `tool ${call.tool} returned a malformed result: ${new ContractViolation('ToolResult', checked.error.issues).message}`);
  }
  const result = checked.data;
  if (result.callId !== call.id || result.tool !== call.tool) {
    return kernelResult(prepared, call, 'failed', 'invalid_tool_result', `tool ${call.tool} answered for another call or tool`);
  }
  return result;
}

/**
 * Records a call the caller's abort cut short, wherever it landed (waiting on
 * authority, on the catalogue, or in the handler): the abort is rethrown, so
 * without this record the call would leave no trace in the trail at all.
 */
function interrupted(core: KernelCore, prepared: PreparedContext, call: ToolCall, lease: TurnLease | undefined): void | Promise<void> {
  return core.trail.outcome(
    core.trail.event(prepared, 'tool.invoked', 'interrupted', {
      tool: call.tool,
      operationId: call.id,
      reason: 'interrupted',
      source: 'kernel',
      ...(lease?.catalogHash === undefined ? {} : { catalogHash: lease.catalogHash }),
    }),
  );
}

function kernelResult(prepared: PreparedContext, call: ToolCall, status: 'denied' | 'failed', code: string, message: string): ToolResult {
  return { status, code, message: boundRefusalMessage(message), callId: call.id, tool: call.tool, completedAt: prepared.context.now };
}

function unavailable(core: KernelCore, prepared: PreparedContext, call: ToolCall, lease: TurnLease, cause: UnavailableCause): Promise<ToolResult> {
  return refuse(core, prepared, call, lease, { status: 'denied', code: 'tool_unavailable', message: `tool ${call.tool} is not available`, cause });
}

async function refuse(core: KernelCore, prepared: PreparedContext, call: ToolCall, lease: TurnLease | undefined, refusal: Refusal): Promise<ToolResult> {
  await core.trail.outcome(
    core.trail.event(prepared, 'tool.invoked', refusal.status, {
      tool: call.tool,
      operationId: call.id,
      reason: refusal.code,
      source: 'kernel',
      ...(refusal.cause === undefined ? {} : { cause: refusal.cause }),
      ...(lease?.catalogHash === undefined ? {} : { catalogHash: lease.catalogHash }),
      ...refusal.fields,
    }),
  );
  return kernelResult(prepared, call, refusal.status, refusal.code, refusal.message);
}

