/**
 * Every place on the catalogue-resolution and call paths that does work the
 * gate should notice being done again (ADR 0072), walked by a written rule
 * rather than by the regressions that come to mind:
 *
 *   Read src/kernel (authority and lease, registry, catalogue strategy,
 *   operations: call, list, boundary; audit) and src/mcp (the bridge and
 *   server answering tools/list and tools/call) top to bottom. A place is
 *   every cache or memo that could be bypassed; every derivation, hash, copy,
 *   serialisation or parse that could be repeated; every per-tool step that
 *   could move into every call.
 *
 * Each place names the lane whose counted unit runs it and either the power
 * campaign's fixture that regresses it (bench/gate/fixtures.ts) or why there
 * is none, so a reader sees what the gate is known to catch and what not.
 */
import type { InstructionLaneId } from './lanes.js';

type PlaceKind = 'cache' | 'derivation' | 'hash' | 'copy' | 'serialisation' | 'parse' | 'per-tool step';

/** The lane whose counted unit runs the place's work; `structural` when the structural lane counts it exactly. */
type PlaceLane = InstructionLaneId | 'structural';

interface PlaceBase {
  readonly id: string;
  /** file:function, relative to src/. */
  readonly where: string;
  readonly kind: PlaceKind;
}

/** A place whose regression the campaign counts. */
export interface CoveredPlace extends PlaceBase {
  readonly lane: InstructionLaneId;
  readonly fixture: string;
}

/** A place without a fixture, and why. */
interface UncoveredPlace extends PlaceBase {
  readonly lane: PlaceLane | undefined;
  readonly uncovered: string;
}

export type WalkedPlace = CoveredPlace | UncoveredPlace;

export function isCovered(place: WalkedPlace): place is CoveredPlace {
  return 'fixture' in place;
}

const NO_SIGNALLED_WORLD =
  'no lane runs it: no lane world has a provider with a change signal (catalogueRevision); ' +
  'the scale sweep’s signalled points do, outside the gate';
const WARM_UP_ONLY =
  'no lane reaches it in a counted window: the asked answer’s identity checks answer every unchanged entry first; ' +
  'it runs on an answer’s first turns and after an edit, which the warm-up consumes';
const MEMORY_AUDIT = 'no lane runs it: every lane audits to memory';

export const WALKED_PLACES: readonly WalkedPlace[] = Object.freeze([
  // Catalogue resolution: the turn strategy and what it asks.
  {
    id: 'turn-memo',
    where: 'kernel/catalogue/turn-strategy.ts:TurnStrategy.resolve',
    kind: 'cache',
    lane: 'catalogue',
    fixture: 'revert-turn-memo',
  },
  {
    id: 'turn-derivation',
    where: 'kernel/catalogue/turn-strategy.ts:deriveByContent',
    kind: 'derivation',
    lane: 'catalogue',
    fixture: 'ladder-derive-repeat',
  },
  {
    id: 'held-registry',
    where: 'kernel/catalogue/turn-strategy.ts:TurnStrategy.resolve (held registry handed on as is)',
    kind: 'copy',
    lane: 'catalogue',
    fixture: 'ladder-registry-copies',
  },
  {
    id: 'provided-tools',
    where: 'kernel/catalogue/derive-registry.ts:askProviders (each provided tool, each turn)',
    kind: 'per-tool step',
    lane: 'catalogue',
    fixture: 'ladder-provider-tools',
  },
  {
    id: 'principal-key',
    where: 'kernel/catalogue/principal-key.ts:principalKey',
    kind: 'derivation',
    lane: 'catalogue',
    fixture: 'principal-key-twice',
  },
  {
    id: 'revision-recall',
    where: 'kernel/catalogue/turn-strategy.ts:recallByRevision',
    kind: 'cache',
    lane: undefined,
    uncovered: NO_SIGNALLED_WORLD,
  },
  {
    id: 'revision-answers',
    where: 'kernel/registry/provider-revisions.ts:ProviderRevisions.find',
    kind: 'cache',
    lane: undefined,
    uncovered: NO_SIGNALLED_WORLD,
  },
  {
    id: 'sealed-list',
    where: 'kernel/catalogue/asked-answer.ts:admitAsked (the sealed list’s identity)',
    kind: 'cache',
    lane: undefined,
    uncovered:
      'no lane runs it: no lane world’s provider answers a frozen list ' +
      '(bypassing it moved catalogue-1000 by −0.04%, its scaled provider’s list being mutable)',
  },
  {
    id: 'asked-entry',
    where: 'kernel/catalogue/asked-answer.ts:admitAsked (an entry’s definition by identity)',
    kind: 'cache',
    lane: 'opening-2000-unsignalled',
    fixture: 'bypass-asked-entry-identity',
  },
  {
    id: 'handler-check',
    where: 'kernel/catalogue/asked-answer.ts:admitAsked (requireFunctions, isSealedHandler per entry)',
    kind: 'per-tool step',
    lane: 'opening-2000-unsignalled',
    fixture: 'handler-check-twice',
  },
  {
    id: 'store-by-object',
    where: 'kernel/registry/definition-store.ts:DefinitionStore.admit (#byImmutableObject)',
    kind: 'cache',
    lane: undefined,
    uncovered: WARM_UP_ONLY,
  },
  {
    id: 'store-by-name',
    where: 'kernel/registry/definition-store.ts:DefinitionStore.admit (#latestByName, sameJson)',
    kind: 'cache',
    lane: undefined,
    uncovered: WARM_UP_ONLY,
  },
  {
    id: 'store-by-text',
    where: 'kernel/registry/definition-store.ts:DefinitionStore.admit (jsonText, #byText)',
    kind: 'serialisation',
    lane: undefined,
    uncovered: WARM_UP_ONLY,
  },
  {
    id: 'definition-compile',
    where: 'kernel/registry/definition-store.ts:compile (parse, validate, deep-freeze)',
    kind: 'parse',
    lane: undefined,
    uncovered: WARM_UP_ONLY,
  },
  {
    id: 'shape-parts',
    where: 'kernel/catalogue/shape-cache.ts:ShapeCache.shapeFor (remembered parts by identity)',
    kind: 'cache',
    lane: 'catalogue-1000',
    fixture: 'bypass-shape-parts-identity',
  },
  {
    id: 'shape-cache',
    where:
      'kernel/catalogue/shape-cache.ts:ShapeCache.shapeFor → ' +
      'registry/catalogue-shape.ts:CatalogueShape (sort, indexes)',
    kind: 'derivation',
    lane: 'catalogue',
    fixture: 'rebuild-shape-every-derivation',
  },
  {
    id: 'static-registry-lists',
    where: 'kernel/registry/tool-registry.ts:ToolRegistry.list, definitions (sorted once, until the next add)',
    kind: 'cache',
    lane: 'catalogue',
    fixture: 'static-list-sorted-every-derivation',
  },
  // The listing.
  {
    id: 'listing-verdicts',
    where: 'kernel/registry/catalogue-shape.ts:CatalogueShape.listing (remembered listings)',
    kind: 'cache',
    lane: 'listing',
    fixture: 'bypass-listing-verdicts',
  },
  {
    id: 'discovery-verdicts',
    where: 'kernel/authority/discovery-filter.ts:DiscoveryFilter.allows, verdictsFor',
    kind: 'cache',
    lane: 'listing',
    fixture: 'discovery-every-ceiling',
  },
  {
    id: 'grant-eligibility',
    where: 'kernel/authority/discovery-filter.ts:DiscoveryFilter constructor (ineligibility per grant)',
    kind: 'derivation',
    lane: 'listing',
    fixture: 'eligibility-twice',
  },
  {
    id: 'discovery-index',
    where: 'kernel/authority/discovery-filter.ts:DiscoveryFilter.#index',
    kind: 'cache',
    lane: undefined,
    uncovered: 'no lane reaches it in a counted window: it is built only when a ceiling’s verdict is not remembered',
  },
  {
    id: 'catalogue-hash',
    where: 'kernel/catalogue/catalog-hash.ts:catalogHash (byFrozenList, recall)',
    kind: 'hash',
    lane: 'listing',
    fixture: 'rehash-catalogue-every-listing',
  },
  {
    id: 'published-text',
    where: 'kernel/catalogue/catalog-hash.ts:textOf (publishedText)',
    kind: 'serialisation',
    lane: undefined,
    uncovered: 'no lane reaches it in a counted window: it is read only when a catalogue is hashed afresh',
  },
  {
    id: 'published-catalogue',
    where: 'kernel/catalogue/catalog-hash.ts:publishCatalogue (publishedLists)',
    kind: 'copy',
    lane: undefined,
    uncovered:
      'no lane runs it: the MCP bridge publishes when it opens a turn, ' +
      'and the mcp lane counts tools/call inside an open turn',
  },
  {
    id: 'listing-record',
    where: 'kernel/operations/list-tools.ts:listTools (the listed event’s metadata copy)',
    kind: 'copy',
    lane: 'listing',
    fixture: 'listing-metadata-copy-twice',
  },
  // Context, authority, the turn boundary.
  {
    id: 'prepared-context',
    where: 'kernel/authority/prepared-context.ts:prepareContext (remembered per context object)',
    kind: 'parse',
    lane: 'call',
    fixture: 'bypass-prepared-context',
  },
  {
    id: 'lease-authority',
    where: 'kernel/operations/operation-lease.ts:leaseFor (authority held on the turn’s lease)',
    kind: 'cache',
    lane: 'structural',
    uncovered: 'no fixture: the structural lane counts authority loads per turn exactly (expected 1)',
  },
  {
    id: 'kept-grant',
    where: 'kernel/authority/loaded-grants.ts:keptGrant, loadGrant',
    kind: 'parse',
    lane: 'boundary',
    fixture: 'bypass-kept-grant',
  },
  {
    id: 'grant-set',
    where: 'kernel/authority/loaded-grants.ts:grantSet (sorted, joined, hashed)',
    kind: 'hash',
    lane: 'boundary',
    fixture: 'bypass-grant-set',
  },
  {
    id: 'static-grants',
    where: 'kernel/authority/grant-source.ts:StaticGrantSource.load',
    kind: 'copy',
    lane: 'boundary',
    fixture: 'static-grants-copied-every-load',
  },
  // The mediated call.
  {
    id: 'call-contract',
    where: 'kernel/operations/invoke-tool.ts:checkCall (safeParseToolCall)',
    kind: 'parse',
    lane: 'call',
    fixture: 'call-contract-twice',
  },
  {
    id: 'tool-lookup',
    where: 'kernel/registry/catalogue-shape.ts:CatalogueShape.indexOf (the name’s index)',
    kind: 'per-tool step',
    lane: 'call',
    fixture: 'lookup-by-scan',
  },
  {
    id: 'bound-entry',
    where: 'kernel/registry/effective-registry.ts:HeldRegistry.get (#bound)',
    kind: 'cache',
    lane: 'call',
    fixture: 'rebind-entry-every-call',
  },
  {
    id: 'arguments',
    where: 'kernel/operations/invoke-tool.ts:parseArguments (parse, deep-freeze)',
    kind: 'parse',
    lane: 'call',
    fixture: 'parse-arguments-twice',
  },
  {
    id: 'requirement',
    where: 'kernel/operations/invoke-tool.ts:resolveRequirement (parseRequirement)',
    kind: 'parse',
    lane: 'call',
    fixture: 'requirement-twice',
  },
  {
    id: 'authorize',
    where: 'kernel/authority/authorize.ts:authorize',
    kind: 'serialisation',
    lane: 'call',
    fixture: 'dearer-call',
  },
  {
    id: 'rejection-records',
    where: 'kernel/authority/authorize.ts:rejection (grant.rejections, one frozen record per reason)',
    kind: 'cache',
    lane: 'call',
    fixture: 'bypass-rejection-records',
  },
  {
    id: 'result-contract',
    where: 'kernel/operations/invoke-tool.ts:runHandler (safeParseToolResult)',
    kind: 'parse',
    lane: 'call',
    fixture: 'result-contract-twice',
  },
  {
    id: 'audit-event',
    where: 'kernel/audit/audit-trail.ts:AuditTrail.open, seal (the event’s fields, deep-freeze)',
    kind: 'copy',
    lane: 'call',
    fixture: 'seal-walks-every-field',
  },
  {
    id: 'audit-lines',
    where: 'kernel/audit/held-outcomes.ts:HeldOutcomes.take, audit/jsonl-file-sink.ts (JSON lines)',
    kind: 'serialisation',
    lane: undefined,
    uncovered: MEMORY_AUDIT,
  },
  // The MCP layer.
  {
    id: 'bridge-listing',
    where: 'mcp/open-tool-bridge.ts:OpenToolBridge.call (the turn’s listing, held from its opening)',
    kind: 'cache',
    lane: 'mcp',
    fixture: 'mcp-listing-per-call',
  },
  {
    id: 'bridge-names',
    where: 'mcp/open-tool-bridge.ts:OpenToolBridge.call (#names)',
    kind: 'per-tool step',
    lane: 'mcp',
    fixture: 'bridge-names-by-scan',
  },
  {
    id: 'call-request',
    where: 'mcp/tools-call-handler.ts:setToolsCallHandler (CallToolRequestSchema)',
    kind: 'parse',
    lane: 'mcp',
    fixture: 'mcp-request-parse-twice',
  },
  {
    id: 'argument-limits',
    where: 'mcp/argument-limits.ts:checkArguments',
    kind: 'derivation',
    lane: 'mcp',
    fixture: 'mcp-arguments-check-thrice',
  },
  {
    id: 'call-result',
    where: 'mcp/call-result.ts:toCallToolResult (the output’s JSON text)',
    kind: 'serialisation',
    lane: 'mcp',
    fixture: 'mcp-result-serialize-5x',
  },
  {
    id: 'content-blocks',
    where: 'mcp/call-result.ts:passThroughContent (ContentBlockSchema per block)',
    kind: 'parse',
    lane: undefined,
    uncovered:
      'no lane runs it: no lane world’s tool answers MCP content alone ({content: […]}, what an MCP-backed ' +
      'provider keeps of an upstream’s answer); the mcp lane’s outputs ({ok, path}) fail the shape check first',
  },
  {
    id: 'tools-list',
    where: 'mcp/tool-server.ts:McpToolServer.#list',
    kind: 'copy',
    lane: undefined,
    uncovered: 'no lane runs it: no lane counts tools/list over MCP',
  },
  {
    id: 'wire-frames',
    where: 'mcp/json-rpc-frames.ts, mcp/transports (stdio, HTTP: JSON-RPC text)',
    kind: 'serialisation',
    lane: undefined,
    uncovered: 'no lane runs it: the mcp lane uses the SDK’s in-memory transport, which passes messages as objects',
  },
  {
    id: 'request-timing',
    where: 'mcp/request-timing.ts:TimedTransport (a label per request)',
    kind: 'per-tool step',
    lane: 'mcp',
    fixture: 'timing-lookup-every-frame',
  },
] satisfies WalkedPlace[]);
