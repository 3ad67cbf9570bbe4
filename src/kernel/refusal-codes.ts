/**
 * The one refusal vocabulary. Every boundary — kernel, bridge, transport —
 * answers in these words, so an audit query for `no_matching_grant` finds
 * the refusal whichever path the call came in by.
 */

/** Outcomes of an authorization decision (SPEC §1.3). */
export type DecisionCode =
  | 'allowed'
  | 'invalid_context'
  | 'invalid_request'
  | 'no_matching_grant'
  | 'grant_exhausted'
  | 'usage_store_unavailable'
  | 'authority_unavailable';

/** Why an authority could not be resolved; every one surfaces to callers as `authority_unavailable`. */
export type AuthorityFailureCode =
  | 'grant_source_failed'
  | 'invalid_grant_material'
  | 'grant_limit_exceeded'
  | 'grant_scope_mismatch';

/** Refusals and failures of a tool operation (SPEC §1.6), beyond the decision codes. */
export type OperationCode =
  | 'trace_mismatch'
  | 'tool_catalog_unavailable'
  | 'tool_unavailable'
  | 'invalid_tool_arguments'
  | 'tool_requirement_resolution_failed'
  | 'invalid_tool_requirement'
  | 'tool_execution_failed'
  | 'invalid_tool_result'
  | 'audit_unavailable'
  | 'namespace_settings_unavailable';

export type RefusalCode = Exclude<DecisionCode, 'allowed'> | OperationCode;

/** Why a tool is hidden or missing. A hidden tool and a missing one look alike to the caller. */
export type UnavailableCause =
  | 'not_registered'
  | 'namespace_disabled'
  | 'not_in_listed_catalogue'
  | Exclude<DecisionCode, 'allowed'>;

/**
 * Why the MCP envelope (the bridge in front of the kernel) refused a call
 * before the kernel was asked. Recorded as the `cause` of a `tool.invoked`
 * event with `source: 'envelope'`.
 */
export type EnvelopeCause =
  | 'not_in_listed_catalogue'
  | 'catalogue_not_listed'
  | 'turn_closed'
  | 'arguments_too_large'
  | 'arguments_too_deep';

/**
 * Why an execution token was refused (SPEC §2). A transport answers these
 * (HTTP 401) before any operation runs, so they name the credential, not a call.
 */
export type ExecutionTokenCode = 'malformed' | 'signature_mismatch' | 'expired' | 'claims_mismatch';

/** Infrastructure failures are recorded `failClosed: true`: the answer is a refusal because we could not know. */
export function isFailClosed(code: string): boolean {
  return code === 'usage_store_unavailable' || code === 'authority_unavailable' || code === 'audit_unavailable';
}
