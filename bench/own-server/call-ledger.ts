/**
 * What each planned call made of the target: its times (warm and cold), its
 * last answer with the server's own words for a refusal, and its result's
 * `structuredContent` judged against the tool's `outputSchema`. One row per
 * tool and argument set, skipped calls included with their reason.
 */
import type { PlannedCall } from './call-plan.js';
import { structuredContentCheck } from './schema-check.js';
import type { Redactor } from './secrets.js';
import type { CallCost } from './target-report-schema.js';
import type { CallOutcome } from './target-session.js';
import { timing } from './timing.js';

export type CallPhase = 'warm' | 'cold';

function answeredAs(outcome: CallOutcome): NonNullable<CallCost['answered']> {
  if (outcome.kind === 'timeout') return 'timeout';
  return outcome.kind === 'error' ? 'jsonrpc-error' : outcome.isError ? 'isError' : 'success';
}

export class CallLedger {
  readonly #plan: readonly PlannedCall[];
  readonly #tools: Map<string, Record<string, unknown>>;
  readonly #redactor: Redactor;
  readonly #times = new Map<string, { warm: number[]; cold: number[] }>();
  readonly #last = new Map<string, CallOutcome>();
  readonly #checks = new Map<string, CallCost['structured']>();

  constructor(plan: readonly PlannedCall[], tools: readonly Record<string, unknown>[], redactor: Redactor) {
    this.#plan = plan;
    this.#tools = new Map(
      tools.filter((tool) => typeof tool['name'] === 'string').map((tool) => [tool['name'] as string, tool]),
    );
    this.#redactor = redactor;
  }

  /** The calls to make, in plan order. */
  get calls(): readonly PlannedCall[] {
    return this.#plan.filter((call) => call.status === 'called');
  }

  record(call: PlannedCall, outcome: CallOutcome, phase: CallPhase | 'unmeasured'): void {
    const times = this.#times.get(call.key) ?? this.#times.set(call.key, { warm: [], cold: [] }).get(call.key)!;
    // A timeout's time is the timeout, not a measurement of the server.
    if (phase !== 'unmeasured' && outcome.kind !== 'timeout') times[phase].push(outcome.ms);
    this.#last.set(call.key, outcome);
    // Judged on the first successful answer and whenever one disagrees with it: a schema is compiled per check, not per
    // sample.
    const before = this.#checks.get(call.key);
    if (before === undefined || before.verdict === 'not_checked' || before.verdict === 'valid') {
      const check = structuredContentCheck(
        this.#tools.get(call.tool),
        outcome.kind === 'result' ? outcome.result : undefined,
      );
      if (before === undefined || check.verdict !== 'not_checked')
        this.#checks.set(
          call.key,
          check.problem === undefined ? check : { ...check, problem: this.#redactor.scrub(check.problem) },
        );
    }
  }

  rows(): CallCost[] {
    return this.#plan.map((call) => {
      const last = this.#last.get(call.key);
      const times = this.#times.get(call.key) ?? { warm: [], cold: [] };
      return {
        tool: this.#redactor.scrub(call.tool),
        key: this.#redactor.scrub(call.key),
        identity: call.identity.name,
        source: call.source,
        arguments: this.#redactor.scrubValue(call.arguments),
        status: call.status,
        ...(call.reason === undefined ? {} : { reason: call.reason }),
        ...(last === undefined ? {} : { answered: answeredAs(last) }),
        ...(last?.errorText === undefined ? {} : { errorText: last.errorText }),
        responseBytes: last?.bytes ?? 0,
        warm: timing(times.warm),
        cold: timing(times.cold),
        structured: this.#checks.get(call.key) ?? { verdict: 'not_checked' },
      };
    });
  }
}
