import type { Address } from './address.js';
import type { JsonObject } from './primitives.js';

export type AuditEventType =
  | 'authority.resolved'
  | 'authorization.checked'
  | 'tool.catalog.listed'
  | 'tool.namespace.catalog.listed'
  | 'tool.namespace.selection.updated'
  | 'tool.invoked';

export type AuditOutcome = 'succeeded' | 'allowed' | 'denied' | 'failed' | 'interrupted';

/**
 * One frozen record of the trail. The principal fields are null only on the
 * record of a context that failed validation: the refusal is still written,
 * with whatever could not be trusted left out rather than guessed.
 */
export interface AuditEvent {
  readonly id: string;
  readonly type: AuditEventType;
  readonly outcome: AuditOutcome;
  readonly at: string;
  readonly traceId: string | null;
  readonly namespaceId: string | null;
  readonly actor: Address | null;
  readonly authority: Address | null;
  readonly owner: Address | null;
  readonly purpose: string | null;
  readonly turnId?: string;
  readonly tool?: string;
  readonly operationId?: string;
  readonly resource?: unknown;
  readonly action?: string;
  readonly grantId?: string;
  readonly authorityHash?: string;
  readonly reason?: string;
  readonly cause?: string;
  readonly source?: 'kernel' | 'envelope';
  readonly failClosed?: boolean;
  readonly consumed?: boolean;
  readonly catalogHash?: string;
  readonly metadata?: Readonly<JsonObject>;
}
