import type { PreparedContext } from '../authority/prepared-context.js';
import type { AuditEvent, AuditEventType, AuditOutcome } from '../contracts/index.js';
import type { KernelCounters } from '../observability/counters.js';
import { deepFreeze } from '../registry/deep-freeze.js';
import type { AuditFailureListener, AuditSink } from './audit-sink.js';
import { RecordIds } from './record-ids.js';

/** A decision record could not be written, so the effect it guards did not happen. */
export class AuditUnavailable extends Error {
  override readonly name = 'AuditUnavailable';
  readonly code = 'audit_unavailable';
}

export type { AuditFailureListener } from './audit-sink.js';

/** An event still being written by the operation that opened it. */
export type Mutable<T> = { -readonly [K in keyof T]: T[K] };

export type AuditFields = Omit<
  AuditEvent,
  'id' | 'type' | 'outcome' | 'at' | 'traceId' | 'namespaceId' | 'actor' | 'authority' | 'owner' | 'purpose' | 'turnId'
>;

/**
 * deepFreeze for an event: its own values are mostly strings, and its
 * objects are mostly frozen already (the context's principals, a resource
 * a previous record froze), so only an object not yet frozen is walked.
 * A call's two records spent a visible share of the call in deepFreeze's
 * per-value calls in a CPU profile of the workload's in-process calls.
 */
function freezeEvent(event: Record<string, unknown>): AuditEvent {
  for (const key in event) {
    const value = event[key];
    if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) deepFreeze(value);
  }
  return Object.freeze(event) as unknown as AuditEvent;
}

function ignore(): void {}

function isThenable(value: unknown): value is PromiseLike<void> {
  return value !== undefined && value !== null && typeof (value as PromiseLike<void>).then === 'function';
}

/**
 * Builds frozen events and applies the two write rules (SPEC §1.8):
 * a decision record, written before an effect, stops the operation when its
 * sink fails; an outcome record, written after, reports the failure to the
 * host and lets the caller have its result. The outcome record of an
 * authorized call may leave after the answer (`outcomeAfterAnswer`, ADR 0054)
 * when the sink can hold it.
 */
export class AuditTrail {
  /** This trail's record ids: its own random prefix and a count (ADR 0035). */
  readonly #ids = new RecordIds();

  constructor(
    private readonly sink: AuditSink,
    private readonly counters: KernelCounters,
    private readonly onOutcomeFailure: AuditFailureListener,
  ) {}

  /**
   * Events are frozen all the way down, not just at the top: a sink is host
   * code, and one event's `resource` is the same object as its decision
   * record's, so a sink editing one would otherwise rewrite the other. Every
   * nested value is the kernel's own (zod hands back copies), so freezing in
   * place costs no copy.
   */
  event(prepared: PreparedContext, type: AuditEventType, outcome: AuditOutcome, fields: AuditFields): AuditEvent {
    const event = this.open(prepared, type, outcome);
    Object.assign(event, fields);
    return freezeEvent(event);
  }

  /**
   * The head of an event (id, type, outcome, the context's fields), for an
   * operation that writes the rest straight into it and then `seal`s it: the
   * per-call records are built this way, without a fields object that
   * `event` would copy over (one object and one Object.assign per record).
   */
  open(prepared: PreparedContext, type: AuditEventType, outcome: AuditOutcome): Mutable<AuditEvent> {
    const { context } = prepared;
    // Built in place, in the spread form's key order, without the throwaway object a conditional spread makes.
    const event: Mutable<AuditEvent> = {
      id: this.#ids.next(),
      type,
      outcome,
      at: context.now,
      traceId: context.traceId,
      namespaceId: context.namespaceId,
      actor: context.actor,
      authority: context.authority,
      owner: context.owner,
      purpose: context.purpose,
    };
    if (context.turnId !== undefined) event.turnId = context.turnId;
    return event;
  }

  /**
   * Freezes an event `open` began, all the way down (see `event`). The head's
   * values are strings and the context's frozen principals, and a caller of
   * `open` writes scalars besides `resource` and `metadata`, so only those
   * two are walked: no pass over every key.
   */
  seal(event: Mutable<AuditEvent>): AuditEvent {
    if (event.resource !== undefined) deepFreeze(event.resource);
    if (event.metadata !== undefined) deepFreeze(event.metadata);
    return Object.freeze(event);
  }

  /** The record of a context that failed validation: written with nothing from the untrusted context. */
  invalidContextEvent(type: AuditEventType, fields: AuditFields): AuditEvent {
    return deepFreeze({
      id: this.#ids.next(),
      type,
      outcome: 'denied',
      at: new Date().toISOString(),
      traceId: null,
      namespaceId: null,
      actor: null,
      authority: null,
      owner: null,
      purpose: null,
      ...fields,
    });
  }

  /** Writes a decision record; throws (or rejects with) AuditUnavailable if the sink fails. */
  decision(event: AuditEvent): void | Promise<void> {
    this.counters.auditEvents++;
    let pending: unknown;
    try {
      pending = this.sink.write(event);
    } catch (error) {
      throw new AuditUnavailable(`audit sink refused decision record ${event.type}`, { cause: error });
    }
    if (isThenable(pending)) {
      return Promise.resolve(pending).catch((error: unknown) => {
        throw new AuditUnavailable(`audit sink refused decision record ${event.type}`, { cause: error });
      });
    }
  }

  /**
   * Writes a call's refusal record before the refusal is answered: it is the
   * refusal's decision (ADR 0054). Never throws: a record the sink could not
   * take goes to the host's listener and the answer is false, so the caller
   * is answered `audit_unavailable` rather than with a refusal the trail does
   * not hold.
   */
  refusal(event: AuditEvent): boolean | Promise<boolean> {
    return this.#written(event);
  }

  /** Writes an outcome record; never throws. A failure goes to the host's listener. */
  outcome(event: AuditEvent): void | Promise<void> {
    const written = this.#written(event);
    if (typeof written !== 'boolean') return written.then(ignore);
  }

  /** Writes a record whose failure goes to the host's listener: whether the sink took it. */
  #written(event: AuditEvent): boolean | Promise<boolean> {
    this.counters.auditEvents++;
    let pending: unknown;
    try {
      pending = this.sink.write(event);
    } catch (error) {
      this.#report(error, event);
      return false;
    }
    if (!isThenable(pending)) return true;
    return Promise.resolve(pending).then(
      () => true,
      (error: unknown) => {
        this.#report(error, event);
        return false;
      },
    );
  }

  /**
   * The outcome record of a call whose `allowed` decision is in the sink: a
   * sink that can hold it takes it to write after the answer (with its next
   * record, or within its hold bound); any other sink writes it now, as
   * `outcome` does. A crash can lose only such a record, and its decision
   * record names the call to the trail's reader (`readTrail`).
   */
  outcomeAfterAnswer(event: AuditEvent): void | Promise<void> {
    if (this.sink.hold === undefined) return this.outcome(event);
    this.counters.auditEvents++;
    try {
      this.sink.hold(event, this.#reportFailure);
    } catch (error) {
      this.#report(error, event);
    }
  }

  readonly #reportFailure: AuditFailureListener = (error, event) => this.#report(error, event);

  #report(error: unknown, event: AuditEvent): void {
    try {
      this.onOutcomeFailure(error, event);
    } catch {
      // The listener is host code; its failure must not turn a delivered result into a thrown one.
    }
  }
}
