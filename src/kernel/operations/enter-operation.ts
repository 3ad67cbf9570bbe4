import { isAbortError } from '../abort.js';
import type { AuditFields } from '../audit/audit-trail.js';
import type { PreparedContext } from '../authority/prepared-context.js';
import { prepareContext } from '../authority/prepared-context.js';
import type { AvailableAuthority } from '../authority/resolve-authority.js';
import type { TurnLease } from '../authority/turn-lease.js';
import { ContractViolation } from '../contracts/index.js';
import type { AuditEventType } from '../contracts/index.js';
import type { EffectiveRegistry } from '../registry/effective-registry.js';
import { MAX_REFUSAL_FIELDS, boundRefusalMessage } from '../refusal-message.js';
import { describeThrown } from '../thrown-value.js';
import { markStep } from '../observability/spans.js';
import type { KernelCore } from './kernel-core.js';
import { leaseFor } from './operation-lease.js';

/**
 * A refusal as an operation records it: the caller is told `status`, `code` and `message`; the trail also gets `cause`
 * and `fields`.
 */
export interface Refusal<Code extends string = string> {
  readonly status: 'denied' | 'failed';
  readonly code: Code;
  readonly message: string;
  readonly cause?: string;
  readonly fields?: AuditFields;
}

/** The call an operation answers: its records name it, and the catalogue its turn published. */
export interface CallRef {
  readonly id: string;
  readonly tool: string;
}

/** The refusals every operation's opening can end in. */
export type EntryCode = 'invalid_context' | 'authority_unavailable' | 'tool_catalog_unavailable';

const TRACE_MISMATCH: Refusal<'trace_mismatch'> = Object.freeze({
  status: 'denied',
  code: 'trace_mismatch',
  message: 'the call names another trace',
});

/**
 * How one operation enters the kernel. Each stage that refuses records the
 * refusal as `type`, so a refusal reads alike whichever operation met it.
 */
export interface OperationFrame<AdmitCode extends string = never> {
  readonly type: AuditEventType;
  /**
   * `context`: stop once the context is valid (no authority, no catalogue); `catalogue`: go on to the turn's registry.
   */
  readonly reach: 'context' | 'catalogue';
  /**
   * The call this operation answers, if it answers one. Its refusals then
   * carry `tool`, `operationId` and the turn's `catalogHash` (SPEC §1.6 step
   * 10), and an abort is recorded `interrupted` before it is rethrown (so the
   * call leaves a trace).
   */
  readonly call?: CallRef;
  /** The id the call's spans and step marks are keyed by: only a call whose contract held has one. */
  readonly spanId?: string | undefined;
  /** What every record of this operation says, whichever stage wrote it (an envelope's reason, a fail-closed turn). */
  readonly fields?: AuditFields;
  /**
   * The operation's own admission once the context is valid and before any
   * authority is asked: a refusal it already holds (a call that failed its
   * contract), else the trace it names, which must be the context's
   * (`trace_mismatch`). Data rather than a callback, so a call allocates no
   * closure for it.
   */
  readonly objection?: Refusal<AdmitCode> | undefined;
  readonly traceId?: string | undefined;
  readonly signal?: AbortSignal;
}

export interface EnteredContext {
  readonly refused: false;
  readonly prepared: PreparedContext;
}

export interface EnteredTurn extends EnteredContext {
  readonly lease: TurnLease;
  readonly authority: AvailableAuthority;
  readonly registry: EffectiveRegistry;
}

export interface Refused<Code extends string> {
  readonly refused: true;
  readonly refusal: Refusal<Code>;
  /** The context, when the refusal came after it was found valid: its instant stamps the answer. */
  readonly prepared: PreparedContext | undefined;
}

type Entry<Reached, Code extends string> = Reached | Refused<Code> | Promise<Reached | Refused<Code>>;

/**
 * The opening every kernel operation shares, SPEC §1.6: the context's
 * contract (`invalid_context`), the operation's own admission, the turn's
 * authority (`authority_unavailable`), the turn's registry
 * (`tool_catalog_unavailable`). Each refusal is recorded before it is
 * returned, with its message and offending fields bounded (the material is
 * untrusted) and anything a port threw described without trusting it.
 *
 * Synchronous whenever nothing has to wait — a held lease, a held registry,
 * a synchronous sink — so a call inside an open turn pays no await here.
 */
export function enterOperation<AdmitCode extends string = never>(
  core: KernelCore,
  contextInput: unknown,
  frame: OperationFrame<AdmitCode> & { readonly reach: 'context' },
): Entry<EnteredContext, EntryCode | AdmitCode>;
export function enterOperation<AdmitCode extends string = never>(
  core: KernelCore,
  contextInput: unknown,
  frame: OperationFrame<AdmitCode> & { readonly reach: 'catalogue' },
): Entry<EnteredTurn, EntryCode | AdmitCode>;
export function enterOperation<AdmitCode extends string>(
  core: KernelCore,
  contextInput: unknown,
  frame: OperationFrame<AdmitCode>,
): Entry<EnteredContext | EnteredTurn, EntryCode | AdmitCode> {
  // 1. The context's contract.
  let prepared: PreparedContext;
  try {
    prepared = prepareContext(contextInput);
  } catch (error) {
    return refuse(core, frame, undefined, undefined, malformed('invalid_context', error));
  }

  // 2. The operation's own admission, before any authority is asked.
  const objection =
    frame.objection ??
    (frame.traceId === undefined || frame.traceId === prepared.context.traceId
      ? undefined
      : (TRACE_MISMATCH as Refusal<string> as Refusal<AdmitCode>));
  if (objection !== undefined) return refuse(core, frame, prepared, undefined, objection);
  markStep(core.spans, 'context', frame.spanId);
  if (frame.reach === 'context') return { refused: false, prepared };

  // 3. Authority: held on the turn's lease, or resolved for this one operation.
  const leased = leaseFor(core, prepared, frame.signal);
  if (!(leased instanceof Promise)) return withAuthority(core, frame, prepared, leased);
  return leased.then(
    (lease) => withAuthority(core, frame, prepared, lease),
    // leaseFor rejects only when the caller's signal aborted the wait.
    (error: unknown) => interrupted(core, frame, prepared, undefined, error),
  );
}

function withAuthority<Code extends string>(
  core: KernelCore,
  frame: OperationFrame<Code>,
  prepared: PreparedContext,
  lease: TurnLease,
): Entry<EnteredTurn, EntryCode | Code> {
  const authority = lease.authority!;
  if (authority.status !== 'available') {
    return refuse(core, frame, prepared, lease, {
      status: 'denied',
      code: 'authority_unavailable',
      message: 'authority for this turn is unavailable',
      cause: authority.code,
      fields: { failClosed: true },
    });
  }
  markStep(core.spans, 'authority', frame.spanId);

  // 4. The effective registry, by the kernel's catalogue strategy (a span when the operation is a call).
  const { spans } = core;
  const spanId = spans === undefined ? undefined : frame.spanId;
  // The span times the strategy's resolution alone (under `turn` one field read), not the set-up above.
  const start = spanId === undefined ? 0 : spans!.now();
  let resolved: EffectiveRegistry | Promise<EffectiveRegistry>;
  try {
    resolved = core.strategy.resolve(lease, prepared, frame.signal);
  } catch (error) {
    return catalogueUnavailable(core, frame, prepared, lease, start, error);
  }
  // Closures only when the registry is still coming: a call inside an open turn under `turn` makes none.
  if (resolved instanceof Promise) {
    return resolved.then(
      (registry) =>
        enteredTurn(core, frame, prepared, lease, authority, registry, start, spanId === undefined ? 0 : spans!.now()),
      (error: unknown) => catalogueUnavailable(core, frame, prepared, lease, start, error),
    );
  }
  // Read before the registry is handed on, so the span ends where the resolution did: under `turn` the segment is one
  // field read timed by a clock pair, and the call into enteredTurn inside it was a share of the segment the
  // strategy does not spend.
  return enteredTurn(core, frame, prepared, lease, authority, resolved, start, spanId === undefined ? 0 : spans!.now());
}

function enteredTurn(
  core: KernelCore,
  frame: OperationFrame<string>,
  prepared: PreparedContext,
  lease: TurnLease,
  authority: AvailableAuthority,
  registry: EffectiveRegistry,
  start: number,
  end: number,
): EnteredTurn {
  const { spans } = core;
  const spanId = spans === undefined ? undefined : frame.spanId;
  if (spanId !== undefined) spans!.record('kernel.tool.catalogue', spanId, start, end);
  markStep(spans, 'catalogue', spanId);
  return { refused: false, prepared, lease, authority, registry };
}

function catalogueUnavailable<Code extends string>(
  core: KernelCore,
  frame: OperationFrame<Code>,
  prepared: PreparedContext,
  lease: TurnLease,
  start: number,
  error: unknown,
): Entry<EnteredTurn, EntryCode | Code> {
  const { spans } = core;
  const spanId = spans === undefined ? undefined : frame.spanId;
  if (spanId !== undefined) spans!.record('kernel.tool.catalogue', spanId, start, spans!.now());
  if (isAbortError(error, frame.signal)) return interrupted(core, frame, prepared, lease, error);
  return refuse(core, frame, prepared, lease, {
    status: 'failed',
    code: 'tool_catalog_unavailable',
    message: 'the tool catalogue is unavailable',
    cause: boundRefusalMessage(describeThrown(error)),
  });
}

/** The refusal of input that failed its contract: message and field list bounded, since both quote the input. */
export function malformed<Code extends string>(code: Code, error: unknown): Refusal<Code> {
  const message = boundRefusalMessage(describeThrown(error));
  const fields = error instanceof ContractViolation ? error.fields.slice(0, MAX_REFUSAL_FIELDS) : [];
  return { status: 'denied', code, message, fields: { metadata: { message, fields } } };
}

/**
 * Records a refusal as the operation's `type`, and says whether the trail
 * took it. Before the context was found valid nothing of it is trusted into
 * the record (the principals are null); after, the record names who was
 * refused, its fields written straight into the event and the event sealed,
 * as a call's own records are: about half a workload turn's calls end in a
 * refusal, and a fields object copied over the event and every key walked to
 * freeze it was paid by each. A call's refusal record is its decision (ADR
 * 0054): when the sink cannot take it the answer is false, and the call is
 * answered `audit_unavailable` instead. Any other operation's refusal record
 * is an outcome record: its failure goes to the host, the answer stands.
 */
export function recordRefusal(
  core: KernelCore,
  frame: Pick<OperationFrame<string>, 'type' | 'call' | 'fields'>,
  prepared: PreparedContext | undefined,
  lease: TurnLease | undefined,
  refusal: Refusal,
): boolean | Promise<boolean> {
  let event;
  if (prepared === undefined)
    event = core.trail.invalidContextEvent(frame.type, refusalFields({}, frame, lease, refusal));
  else {
    const opened = core.trail.open(prepared, frame.type, refusal.status);
    refusalFields(opened, frame, lease, refusal);
    event = core.trail.seal(opened);
  }
  if (frame.call !== undefined) return core.trail.refusal(event);
  const written = core.trail.outcome(event);
  return written === undefined ? true : written.then(() => true);
}

/**
 * What a call is answered when its refusal's record could not be written: nothing ran, and the trail holds no record of
 * the refusal.
 */
export const REFUSAL_UNRECORDED: Refusal<'audit_unavailable'> = Object.freeze({
  status: 'failed',
  code: 'audit_unavailable',
  message: 'the refusal could not be recorded; nothing ran',
  fields: Object.freeze({ failClosed: true }),
});

/**
 * A refusal's fields, written into `into` in the order the spread form had
 * (tool, operationId, reason, source, cause, catalogHash, then the refusal's
 * and the frame's fields over them), without the throwaway objects a
 * conditional spread makes.
 */
function refusalFields<T extends { -readonly [K in keyof AuditFields]: AuditFields[K] }>(
  into: T,
  frame: Pick<OperationFrame<string>, 'call' | 'fields'>,
  lease: TurnLease | undefined,
  refusal: Refusal,
): T {
  const { call } = frame;
  if (call !== undefined) {
    into.tool = call.tool;
    into.operationId = call.id;
  }
  into.reason = refusal.code;
  into.source = 'kernel';
  if (refusal.cause !== undefined) into.cause = refusal.cause;
  if (call !== undefined && lease?.catalogHash !== undefined) into.catalogHash = lease.catalogHash;
  if (refusal.fields !== undefined) Object.assign(into, refusal.fields);
  if (frame.fields !== undefined) Object.assign(into, frame.fields);
  return into;
}

function refuse<Code extends string>(
  core: KernelCore,
  frame: OperationFrame<string>,
  prepared: PreparedContext | undefined,
  lease: TurnLease | undefined,
  refusal: Refusal<Code>,
): Refused<Code> | Promise<Refused<Code>> {
  const written = recordRefusal(core, frame, prepared, lease, refusal);
  // A refusal before the context held is not timed: the call span is keyed only once both contracts held.
  if (prepared !== undefined) markStep(core.spans, 'outcome.record', frame.spanId);
  if (written === true) return { refused: true, refusal, prepared };
  return written === false
    ? unrecorded(prepared)
    : written.then((recorded) => (recorded ? { refused: true, refusal, prepared } : unrecorded(prepared)));
}

/** Only a call's refusal can go unrecorded (recordRefusal), and a call's answer carries its code as a string. */
function unrecorded<Code extends string>(prepared: PreparedContext | undefined): Refused<Code> {
  return { refused: true, refusal: REFUSAL_UNRECORDED as Refusal<string> as Refusal<Code>, prepared };
}

/**
 * The caller's abort cut the opening short. A call records that it was
 * interrupted (the abort is rethrown, so without the record it would leave
 * no trace); any other operation simply rethrows.
 */
async function interrupted(
  core: KernelCore,
  frame: OperationFrame<string>,
  prepared: PreparedContext,
  lease: TurnLease | undefined,
  error: unknown,
): Promise<never> {
  if (frame.call !== undefined) await recordInterrupted(core, prepared, frame.call, lease);
  throw error;
}

/** The record of a call the caller's abort cut short, wherever it landed. */
export function recordInterrupted(
  core: KernelCore,
  prepared: PreparedContext,
  call: CallRef,
  lease: TurnLease | undefined,
): void | Promise<void> {
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
