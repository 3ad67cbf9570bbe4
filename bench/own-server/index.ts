/**
 * Targets as a library (`costlab/target`): measure, check and compare any
 * MCP server from code — the same runs as `costlab bench|conformance|compare
 * --target`.
 */
export { parseTargetSpec, atSize, hasSizePlaceholder, TargetSpecInvalid } from './target-spec.js';
export type { TargetSpec } from './target-spec.js';
export {
  TargetConfigSchema,
  parseTargetConfig,
  loadTargetConfig,
  resolveIdentities,
  CredentialMissing,
  ANONYMOUS,
} from './target-config.js';
export type { TargetConfig, ResolvedIdentity } from './target-config.js';
export { TargetSession } from './target-session.js';
export { TargetFailure } from './target-failure.js';
export type { TargetFailureCode } from './target-failure.js';
export { runTargets, targetRunExitCode } from './run-targets.js';
export { renderTargetMarkdown } from '../markdown/own-server-markdown.js';
export { TargetReportSchema } from './target-report-schema.js';
export type { TargetReport, TargetOutcome, WireCost } from './target-report-schema.js';
export { judgeConsistency, ROW_IDS, ROW_TITLES, CLIENT_TOOL_LIMIT } from './consistency-rows.js';
export type { ConsistencyRow, RowVerdict } from './consistency-rows.js';
export { compareTargets } from './compare-targets.js';
export { Redactor } from './secrets.js';
export { DEFAULT_CALL_PLAN } from './call-plan.js';
export type { CallPlanOptions, CallsMode } from './call-plan.js';
export { CompareSideFailed } from './compare-targets.js';
export { TargetNotProfilable, profileTarget } from './profile-target.js';
export { DEFAULT_TARGET_CONFIG } from './target-config.js';
export { LIMIT_FLAGS } from './target-limits.js';
export type { TargetLimitName } from './target-limits.js';
