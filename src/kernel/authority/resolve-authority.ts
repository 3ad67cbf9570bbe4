import { MAX_GRANTS } from '../contracts/index.js';
import { safeParseGrant } from '../contracts/compiled-contracts.js';
import type { AuthorityFailureCode } from '../refusal-codes.js';
import { describeThrown } from '../thrown-value.js';
import type { CompiledGrant } from './compiled-grant.js';
import { NOT_YET_ADMITTED } from './grant-admission.js';
import type { Admission } from './grant-admission.js';
import { grantSet, keptGrant, loadGrant } from './loaded-grants.js';
import type { LoadedGrant } from './loaded-grants.js';
import type { GrantSource } from './grant-source.js';
import type { PreparedContext } from './prepared-context.js';

export interface AuthoritySnapshot {
  readonly hash: string;
  readonly grantIds: readonly string[];
  readonly grantCount: number;
  readonly loadedAt: string;
}

export interface AvailableAuthority {
  readonly status: 'available';
  readonly grants: readonly CompiledGrant[];
  readonly snapshot: AuthoritySnapshot;
  /** The instant the turn was admitted: not-before, issue, revocation and purpose are judged here. */
  readonly admittedAtMs: number;
  /** The context the turn was admitted with (its lease's opener). */
  readonly admittedWith: PreparedContext;
  /**
   * Per grant, in `grants`' order, what admission decided of it for `admittedWith` (`admissionReason`), decided at
   * the turn's first need of it (`grantIneligibility`): an operation in that very context reads it here and judges
   * only expiry afresh. The one part of an authority written after it is made, and only by that function.
   */
  readonly admission: Admission[];
}

interface UnavailableAuthority {
  readonly status: 'unavailable';
  readonly code: AuthorityFailureCode;
  readonly detail: string;
  readonly admittedAtMs: number;
}

export type ResolvedAuthority = AvailableAuthority | UnavailableAuthority;

function unavailable(code: AuthorityFailureCode, detail: string, admittedAtMs: number): UnavailableAuthority {
  return Object.freeze({ status: 'unavailable', code, detail, admittedAtMs });
}

/**
 * Loads and validates a context's grants. Fails closed: a source that throws,
 * material that is not grants, too many grants, or one grant for another
 * namespace, subject or issuer makes the whole authority unavailable — a
 * source that answers for the wrong principal cannot be trusted for the rest.
 * A source that holds its grants in memory (`loadNow`) is answered without an
 * await, and `signal` is then never read: passed as a function, it is made
 * only for a source that has to be waited on.
 */
export function resolveAuthority(
  source: GrantSource,
  prepared: PreparedContext,
  signal: AbortSignal | (() => AbortSignal),
): ResolvedAuthority | Promise<ResolvedAuthority> {
  if (source.loadNow !== undefined) {
    let material: unknown;
    try {
      material = source.loadNow(prepared.context);
    } catch (error) {
      return unavailable('grant_source_failed', describeThrown(error), prepared.nowMs);
    }
    return authorityFrom(material, prepared);
  }
  return loadAndResolve(source, prepared, typeof signal === 'function' ? signal() : signal);
}

async function loadAndResolve(
  source: GrantSource,
  prepared: PreparedContext,
  signal: AbortSignal,
): Promise<ResolvedAuthority> {
  let material: unknown;
  try {
    material = await source.load(prepared.context, signal);
  } catch (error) {
    return unavailable('grant_source_failed', describeThrown(error), prepared.nowMs);
  }
  return authorityFrom(material, prepared);
}

/** Validates what a grant source answered, for the context that asked. */
function authorityFrom(material: unknown, prepared: PreparedContext): ResolvedAuthority {
  const { context } = prepared;
  const admittedAtMs = prepared.nowMs;
  if (!Array.isArray(material)) {
    return unavailable(
      'invalid_grant_material',
      `grant source returned ${material === null ? 'null' : typeof material}, not an array`,
      admittedAtMs,
    );
  }
  if (material.length > MAX_GRANTS) {
    return unavailable(
      'grant_limit_exceeded',
      `grant source returned ${material.length} grants; at most ${MAX_GRANTS} are accepted`,
      admittedAtMs,
    );
  }
  const entries: LoadedGrant[] = [];
  for (let i = 0; i < material.length; i++) {
    const item: unknown = material[i];
    let loaded = keptGrant(item);
    if (loaded === undefined) {
      let parsed: ReturnType<typeof safeParseGrant>;
      try {
        parsed = safeParseGrant(item);
      } catch (error) {
        // zod reads the material's properties; a getter or proxy that throws is garbage too, not a reason to reject the
        // turn unrecorded.
        return unavailable('invalid_grant_material', `grants[${i}]: ${describeThrown(error)}`, admittedAtMs);
      }
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const field = issue === undefined ? '' : issue.path.map(String).join('.');
        return unavailable(
          'invalid_grant_material',
          `grants[${i}]${field ? `.${field}` : ''}: ${issue?.message ?? 'invalid'}`,
          admittedAtMs,
        );
      }
      loaded = loadGrant(item, parsed.data);
    }
    const grant = loaded.compiled;
    if (grant.namespaceId !== context.namespaceId) {
      return unavailable(
        'grant_scope_mismatch',
        `grant ${grant.id} is for namespace ${grant.namespaceId}`,
        admittedAtMs,
      );
    }
    if (grant.subjectKey !== prepared.actorKey) {
      return unavailable('grant_scope_mismatch', `grant ${grant.id} names another subject`, admittedAtMs);
    }
    if (grant.issuerKey !== prepared.authorityKey) {
      return unavailable('grant_scope_mismatch', `grant ${grant.id} names another issuer`, admittedAtMs);
    }
    entries.push(loaded);
  }
  const set = grantSet(entries);
  return Object.freeze({
    status: 'available',
    grants: set.grants,
    snapshot: Object.freeze({
      hash: set.hash,
      grantIds: set.grantIds,
      grantCount: entries.length,
      loadedAt: context.now,
    }),
    admittedAtMs,
    admittedWith: prepared,
    admission: new Array<Admission>(set.grants.length).fill(NOT_YET_ADMITTED),
  });
}
