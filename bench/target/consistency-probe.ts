/**
 * Plays the consistency probe against a target as each identity: one
 * session per identity; `listRepeats` listings with the configured calls of
 * that identity between them (a listing that changes because a call was
 * made is the case gateways get wrong); then a call of a name the listing
 * does not hold. What it saw goes to the judge; a session that fails keeps
 * what it saw so far, with the failure named.
 */
import { randomBytes } from 'node:crypto';
import type { IdentityObservation, ListingSeen } from './consistency-rows.js';
import type { ResolvedIdentity, TargetConfig } from './target-config.js';
import { TargetFailure } from './target-failure.js';
import { TargetSession } from './target-session.js';
import type { TargetSpec } from './target-spec.js';
import type { Redactor } from './secrets.js';

export async function probeIdentity(
  spec: TargetSpec,
  identity: ResolvedIdentity,
  config: TargetConfig,
  redactor: Redactor,
  isFirst: boolean,
): Promise<IdentityObservation> {
  const listings: ListingSeen[] = [];
  let declaresListChanged = false;
  let unlisted: IdentityObservation['unlisted'];
  let session: TargetSession | undefined;
  try {
    session = await TargetSession.open(spec, identity, { timeoutMs: config.timeoutMs, limits: config, redactor });
    declaresListChanged = session.declaresListChanged;
    const calls = config.calls.filter((call) => (call.identity === undefined ? isFirst : call.identity === identity.name));
    for (let i = 0; i < config.listRepeats; i++) {
      if (i > 0) for (const call of calls) await session.call(call.tool, call.arguments);
      const noticesBefore = session.listChangedNotices;
      const listed = await session.list();
      listings.push({ tools: listed.tools, result: listed.result, noticesBefore, frame: session.frames.findLast((f) => f.direction === 'received' && f.method === 'tools/list') });
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
      how: outcome.kind === 'error' ? `refused with JSON-RPC error ${outcome.errorCode}` : outcome.isError ? 'refused with a tool result isError: true' : 'answered as a success',
      frames,
    };
    return { identity, declaresListChanged, listings, unlisted };
  } catch (error) {
    const failure = error instanceof TargetFailure ? error : new TargetFailure('protocol_error', redactor.scrub(error instanceof Error ? error.message : String(error)));
    return { identity, declaresListChanged, listings, ...(unlisted === undefined ? {} : { unlisted }), failure: { code: failure.code, message: redactor.scrub(failure.message) } };
  } finally {
    await session?.close();
  }
}

export async function probeConsistency(spec: TargetSpec, identities: readonly ResolvedIdentity[], config: TargetConfig, redactor: Redactor): Promise<IdentityObservation[]> {
  const out: IdentityObservation[] = [];
  for (const [i, identity] of identities.entries()) out.push(await probeIdentity(spec, identity, config, redactor, i === 0));
  return out;
}
