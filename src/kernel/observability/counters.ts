/**
 * Exact, monotonic counts of the work the kernel does. Read by the harness
 * and the structural gate as differences around a turn: they are the lane
 * of the gate that no machine noise can move.
 */
export interface KernelCounters {
  /** GrantSource loads (one per lease, one per lease-less operation). */
  authorityLoads: number;
  /** Effective registries built (static part plus providers). */
  derivations: number;
  /** ContextToolProvider.listTools calls. */
  providerCalls: number;
  /**
   * Definitions taken into an effective registry (static re-registrations
   * plus provider tools), each checked either in full (validated, cloned,
   * frozen) or, under `turn`, by its JSON text matching one checked in full
   * before (ADR 0009). The split is definitionsCompiled / definitionsReused.
   */
  entriesValidated: number;
  /** Provider definitions compiled afresh under `turn`: content the kernel had not seen (or had forgotten). */
  definitionsCompiled: number;
  /** Provider definitions answered by content under `turn`: identical to one compiled before, not validated again. */
  definitionsReused: number;
  /**
   * Provider definitions under `turn` read to be admitted (compared member by
   * member, or serialised) rather than known by identity (ADR 0046): none on
   * a turn whose provider hands the definition objects it handed before.
   */
  definitionsRead: number;
  /**
   * Catalogue shapes built under `turn` (sorted, indexed; ADR 0018): one
   * when a derivation's definitions differ from every recent one's, none
   * when nothing changed.
   */
  shapesBuilt: number;
  /**
   * Of shapesBuilt, those made from a recent shape whose names they hold at
   * every position (a tool given new content in place; ADR 0074): the old
   * order, name index and filter classes with the changed tools put in, no
   * sort.
   */
  shapesDerived: number;
  /**
   * Listings under `turn` that walked the catalogue's N tools rather than answering from a remembered listing of the
   * same shape and verdicts.
   */
  listingsFiltered: number;
  /**
   * Provider answers under `turn` taken from the previous answer to the same
   * principal because the provider's catalogue revision had not changed
   * (ADR 0021): no listTools call, no definition read.
   */
  listingsByRevision: number;
  /** Authorization decisions taken (one per call that reached step 8). */
  decisions: number;
  /** Audit events handed to the sink. */
  auditEvents: number;
  /** tool calls received by invokeTool. */
  invocations: number;
  /** Leases currently held in the lease table. */
  openLeases: number;
}

export function createCounters(): KernelCounters {
  return {
    authorityLoads: 0,
    derivations: 0,
    providerCalls: 0,
    entriesValidated: 0,
    definitionsCompiled: 0,
    definitionsReused: 0,
    definitionsRead: 0,
    shapesBuilt: 0,
    shapesDerived: 0,
    listingsFiltered: 0,
    listingsByRevision: 0,
    decisions: 0,
    auditEvents: 0,
    invocations: 0,
    openLeases: 0,
  };
}
