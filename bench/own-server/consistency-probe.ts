/**
 * Plays the consistency probe against a target as each identity: one
 * session per identity; `listRepeats` listings with the configured calls of
 * that identity between them (a listing that changes because a call was
 * made is the case gateways get wrong); then a call of a name the listing
 * does not hold. What it saw goes to the judge; a session that fails keeps
 * what it saw so far, with the failure named.
 */
import { randomBytes } from 'node:crypto';
import { CallLedger } from './call-ledger.js';
import { DEFAULT_CALL_PLAN, planCalls } from './call-plan.js';
import type { CallPlanOptions } from './call-plan.js';
import type { IdentityObservation, ListingSeen } from './consistency-rows.js';
import type { ResolvedIdentity, TargetConfig } from './target-config.js';
import { TargetFailure } from './target-failure.js';
import { TargetSession } from './target-session.js';
import type { TargetSpec } from './target-spec.js';
import type { Redactor } from './secrets.js';

/** The calls made between listings, planned from the first listing any identity saw. */
interface CallsBetweenListings {
  ledger: CallLedger | undefined;
  readonly plan: (tools: readonly Record<string, unknown>[]) => Promise<CallLedger>;
}

async function probeIdentity(
  spec: TargetSpec,
  identity: ResolvedIdentity,
  config: TargetConfig,
  redactor: Redactor,
  between: CallsBetweenListings,
): Promise<IdentityObservation> {
  const listings: ListingSeen[] = [];
  let declaresListChanged = false;
  let unlisted: IdentityObservation['unlisted'];
  let session: TargetSession | undefined;
  try {
    session = await TargetSession.open(spec, identity, { timeoutMs: config.timeoutMs, limits: config, redactor });
    declaresListChanged = session.declaresListChanged;
    for (let i = 0; i < config.listRepeats; i++) {
      if (i > 0) {
        const ledger = between.ledger ?? (await between.plan(listings[0]!.tools));
        for (const call of ledger.calls)
          if (call.identity === identity) ledger.record(call, await session.call(call.tool, call.arguments), 'warm');
      }
      const noticesBefore = session.listChangedNotices;
      const listed = await session.list();
      listings.push({
        tools: listed.tools,
        result: listed.result,
        noticesBefore,
        frame: session.frames.findLast((f) => f.direction === 'received' && f.method === 'tools/list'),
      });
    }
    const listedNames = new Set(listings.flatMap((l) => l.tools.map((t) => t['name'])));
    let name = `costlab-unlisted-${randomBytes(4).toString('hex')}`;
    while (listedNames.has(name)) name = `costlab-unlisted-${randomBytes(4).toString('hex')}`;
    const from = session.frames.length;
    const outcome = await session.call(name, {});
    const frames = session.frames.slice(from).filter((f) => f.method === 'tools/call');
    unlisted = {
      name,
      refused: outcome.isError,
      how:
        outcome.kind === 'error'
          ? `refused with JSON-RPC error ${outcome.errorCode}`
          : outcome.kind === 'timeout'
            ? `not answered within ${config.timeoutMs} ms`
            : outcome.isError
              ? 'refused with a tool result isError: true'
              : 'answered as a success',
      frames,
    };
    return { identity, declaresListChanged, listings, unlisted };
  } catch (error) {
    const failure =
      error instanceof TargetFailure
        ? error
        : new TargetFailure('protocol_error', redactor.scrub(error instanceof Error ? error.message : String(error)));
    return {
      identity,
      declaresListChanged,
      listings,
      ...(unlisted === undefined ? {} : { unlisted }),
      failure: { code: failure.code, message: redactor.scrub(failure.message) },
    };
  } finally {
    await session?.close();
  }
}

export interface ConsistencyProbe {
  readonly observations: IdentityObservation[];
  /** Every planned call with its answer; undefined when no listing was seen to plan from. */
  readonly calls: CallLedger | undefined;
}

export async function probeConsistency(
  spec: TargetSpec,
  identities: readonly ResolvedIdentity[],
  config: TargetConfig,
  redactor: Redactor,
  plan: CallPlanOptions = DEFAULT_CALL_PLAN,
): Promise<ConsistencyProbe> {
  const between: CallsBetweenListings = {
    ledger: undefined,
    plan: async (tools) =>
      (between.ledger ??= new CallLedger(await planCalls(tools, config, identities, plan), tools, redactor)),
  };
  const observations: IdentityObservation[] = [];
  for (const identity of identities) observations.push(await probeIdentity(spec, identity, config, redactor, between));
  return { observations, calls: between.ledger };
}
