/**
 * The floor: the least a mediation can do and still enforce the same thing.
 * Same grant rules as SPEC §1.3 (issuer, subject, namespace, window, purpose;
 * namespace, owner, action, exact/descendants path; discovery's looser test;
 * a bounded grant's use counted), the same two audit records per authorized
 * call (the decision before the handler, the outcome after), the tool's own
 * argument parser and requirement — and nothing else: no contract validation
 * of the context, call or result beyond matching ids, no freezing, no spans,
 * no strategy, no lease table, no ports. Written directly, imports nothing
 * from the kernel, so it shares none of the kernel's costs by construction.
 *
 * The harness runs it over the same attempts as the kernel, checks every
 * outcome against the one the attempt declares (so the floor is known to
 * refuse what the kernel refuses), and prints the kernel's call ÷ this one.
 */
import { RecordIds } from '../../src/kernel/index.js';
import type {
  AccessContext,
  Address,
  Grant,
  JsonObject,
  ParsedToolCall,
  Requirement,
  ToolCall,
  ToolHandler,
  ToolResult,
} from '../../src/kernel/index.js';

interface FloorCapability {
  readonly namespace: string;
  readonly path: readonly string[];
  readonly ownerKey: string | undefined;
  readonly actions: readonly string[];
  readonly exact: boolean;
}

interface FloorGrant {
  readonly id: string;
  readonly namespaceId: string;
  readonly subjectKey: string;
  readonly issuerKey: string;
  readonly admissibleFromMs: number;
  readonly expiresAtMs: number;
  readonly revokedAtMs: number;
  readonly purposes: readonly string[] | undefined;
  readonly maxUses: number | undefined;
  readonly capabilities: readonly FloorCapability[];
}

const keyOf = (a: Address): string =>
  `${a.kind}:${(a as Record<string, string>)[`${a.kind === 'human' ? 'user' : a.kind}Id`]}`;

function compile(grant: Grant): FloorGrant {
  const c = grant.constraints;
  return {
    id: grant.id,
    namespaceId: grant.namespaceId,
    subjectKey: keyOf(grant.subject),
    issuerKey: keyOf(grant.issuer),
    admissibleFromMs: Math.max(
      Date.parse(grant.issuedAt),
      c.notBefore === undefined ? -Infinity : Date.parse(c.notBefore),
    ),
    expiresAtMs: c.expiresAt === undefined ? Infinity : Date.parse(c.expiresAt),
    revokedAtMs: grant.revokedAt === undefined ? Infinity : Date.parse(grant.revokedAt),
    purposes: c.purposes,
    maxUses: c.maxUses,
    capabilities: grant.capabilities.map((cap) => ({
      namespace: cap.resource.namespace,
      path: cap.resource.path,
      ownerKey: cap.resource.owner === undefined ? undefined : keyOf(cap.resource.owner),
      actions: cap.actions,
      exact: cap.scope === 'exact',
    })),
  };
}

// A deliberate twin of the kernel's own check (src/kernel/authority/authorize.ts), as #record is of the kernel's
// audit record (src/kernel/audit/audit-trail.ts): the floor calls no kernel code, so a kernel change cannot move it.
function prefixes(prefix: readonly string[], path: readonly string[]): boolean {
  if (prefix.length > path.length) return false;
  for (let i = 0; i < prefix.length; i++) if (prefix[i] !== path[i]) return false;
  return true;
}

/** One turn of the floor: the context's keys and instant taken once, as the kernel's lease does. */
export class FloorTurn {
  /**
   * µs the last call spent in its handler (0 when it was refused first), when the floor has a clock: subtracted as the
   * kernel's provider span is.
   */
  lastHandlerUs = 0;
  readonly #actorKey: string;
  readonly #authorityKey: string;
  readonly #ownerKey: string;
  readonly #nowMs: number;
  readonly #enabled: ReadonlySet<string>;
  readonly #eligible: readonly FloorGrant[];

  constructor(
    readonly floor: FloorMediation,
    readonly context: AccessContext,
  ) {
    this.#actorKey = keyOf(context.actor);
    this.#authorityKey = keyOf(context.authority);
    this.#ownerKey = keyOf(context.owner);
    this.#nowMs = Date.parse(context.now);
    this.#enabled = new Set(context.enabledToolNamespaces);
    this.#eligible = floor.grants.filter(
      (g) =>
        g.issuerKey === this.#authorityKey &&
        g.subjectKey === this.#actorKey &&
        g.namespaceId === context.namespaceId &&
        g.admissibleFromMs <= this.#nowMs &&
        g.revokedAtMs > this.#nowMs &&
        g.expiresAtMs > this.#nowMs &&
        (g.purposes === undefined || g.purposes.includes(context.purpose)),
    );
  }

  #covers(g: FloorGrant, r: Requirement, discovery: boolean): boolean {
    for (const cap of g.capabilities) {
      if (cap.namespace !== r.resource.namespace) continue;
      if ((cap.ownerKey ?? this.#ownerKey) !== this.#ownerKey) continue;
      if (!cap.actions.includes(r.action) && !cap.actions.includes('*')) continue;
      if (discovery) {
        if (prefixes(cap.path, r.resource.path) || prefixes(r.resource.path, cap.path)) return true;
      } else if (prefixes(cap.path, r.resource.path) && (!cap.exact || cap.path.length === r.resource.path.length)) {
        return true;
      }
    }
    return false;
  }

  #refuse(call: ToolCall, status: 'denied' | 'failed', code: string, message: string): ToolResult {
    this.#record(this.floor.record, 'tool.invoked', status, call, { reason: code });
    return { status, code, message, callId: call.id, tool: call.tool, completedAt: this.context.now };
  }

  #record(
    write: FloorRecordSink,
    type: string,
    outcome: string,
    call: ToolCall,
    fields: Record<string, unknown>,
  ): void {
    const { context } = this;
    write({
      id: this.floor.ids.next(),
      type,
      outcome,
      at: context.now,
      traceId: context.traceId,
      namespaceId: context.namespaceId,
      actor: context.actor,
      authority: context.authority,
      owner: context.owner,
      purpose: context.purpose,
      tool: call.tool,
      operationId: call.id,
      source: 'floor',
      ...fields,
    });
  }

  async call(call: ToolCall): Promise<ToolResult> {
    const { context } = this;
    this.lastHandlerUs = 0;
    if (call.traceId !== context.traceId)
      return this.#refuse(call, 'denied', 'trace_mismatch', 'the call names another trace');
    const handler = this.floor.tools.get(call.tool);
    if (handler === undefined || !this.#enabled.has(handler.definition.namespace))
      return this.#refuse(call, 'denied', 'tool_unavailable', 'not available');
    const ceiling = handler.definition.requiredCapability;
    if (!this.#eligible.some((g) => this.#covers(g, ceiling, true)))
      return this.#refuse(call, 'denied', 'tool_unavailable', 'not available');
    let parsed: ParsedToolCall;
    try {
      parsed = { ...call, arguments: handler.parseArguments(call.arguments) as JsonObject };
    } catch {
      return this.#refuse(call, 'failed', 'invalid_tool_arguments', 'invalid arguments');
    }
    const requirement = handler.resolveRequirement?.(context, parsed) ?? ceiling;
    const owner = requirement.resource.owner;
    if (owner !== undefined && keyOf(owner) !== this.#ownerKey)
      return this.#refuse(call, 'denied', 'invalid_request', 'another owner');
    if (
      requirement.action !== ceiling.action ||
      requirement.resource.namespace !== ceiling.resource.namespace ||
      !prefixes(ceiling.resource.path, requirement.resource.path)
    ) {
      return this.#refuse(call, 'failed', 'invalid_tool_requirement', 'escapes the ceiling');
    }
    let grantId: string | undefined;
    for (const g of this.#eligible) {
      if (!this.#covers(g, requirement, false)) continue;
      if (g.maxUses !== undefined) {
        const used = this.floor.uses.get(g.id) ?? 0;
        if (used >= g.maxUses) continue;
        this.floor.uses.set(g.id, used + 1);
      }
      grantId = g.id;
      break;
    }
    // The decision record, before anything runs.
    this.#record(this.floor.record, 'authorization.checked', grantId === undefined ? 'denied' : 'allowed', call, {
      resource: requirement.resource,
      action: requirement.action,
      grantId,
      reason: grantId === undefined ? 'no_matching_grant' : 'allowed',
    });
    if (grantId === undefined) return this.#refuse(call, 'denied', 'no_matching_grant', 'not authorized');
    const { clock } = this.floor;
    const started = clock === undefined ? 0 : clock();
    const raw = (await handler.invoke(context, parsed, NEVER_ABORTED)) as Partial<ToolResult>;
    if (clock !== undefined) this.lastHandlerUs = (clock() - started) * 1000;
    const result: ToolResult =
      raw.callId === call.id && raw.tool === call.tool && typeof raw.status === 'string'
        ? (raw as ToolResult)
        : {
            status: 'failed',
            code: 'invalid_tool_result',
            message: 'malformed result',
            callId: call.id,
            tool: call.tool,
            completedAt: context.now,
          };
    // The outcome record, which may leave after the answer where the sink can hold it (ADR 0054), as the kernel's does.
    this.#record(this.floor.holdOutcome, 'tool.invoked', result.status, call, {
      reason: result.status === 'succeeded' ? 'allowed' : result.code,
      grantId,
      resource: requirement.resource,
      action: requirement.action,
    });
    return result;
  }
}

const NEVER_ABORTED = new AbortController().signal;

/**
 * Where the floor's records go. By default an array in memory, as the
 * kernel's in-memory trail; served over stdio, the floor writes them where
 * `costlab serve` writes its trail (JSON lines on stderr, or a file written
 * with synchronous `write(2)`), so its records cost what the kernel's do.
 */
export type FloorRecordSink = (record: Record<string, unknown>) => void;

/** The floor's world: tools by name, compiled grants, use counters, and a trail (an array unless a sink is given). */
export class FloorMediation {
  readonly tools: ReadonlyMap<string, ToolHandler>;
  readonly grants: readonly FloorGrant[];
  readonly uses = new Map<string, number>();
  /** The records, when no sink was given. */
  readonly trail: unknown[] = [];
  readonly record: FloorRecordSink;
  /** Where an authorized call's outcome record goes: held past the answer by a sink that can hold it, else `record`. */
  readonly holdOutcome: FloorRecordSink;
  /** Record ids made as the kernel's trail makes them (ADR 0035), so the floor pays what the kernel pays for them. */
  readonly ids = new RecordIds();

  /**
   * @param clock ms, as `performance.now()`: times the handler so it can be subtracted; absent, no clock is read.
   * @param sink where records go instead of `trail`.
   * @param hold where an authorized call's outcome record goes, to be written after the answer (ADR 0054); absent,
   * `sink`.
   */
  constructor(
    handlers: readonly ToolHandler[],
    grants: readonly Grant[],
    readonly clock?: () => number,
    sink?: FloorRecordSink,
    hold?: FloorRecordSink,
  ) {
    this.tools = new Map(handlers.map((h) => [h.definition.name, h]));
    this.grants = grants.map(compile);
    this.record = sink ?? ((record) => void this.trail.push(record));
    this.holdOutcome = hold ?? this.record;
  }

  openTurn(context: AccessContext): FloorTurn {
    return new FloorTurn(this, context);
  }
}
