/**
 * The units of work the gate's instruction lanes count, one runner per lane.
 * Each runner does its set-up when built (kernel, world, whatever the unit
 * needs that is not the unit), then `run(i)` does exactly one unit: a turn's
 * catalogue resolutions, a mediated call batch, a listing, a turn boundary,
 * a batch of tools/call over MCP. The probe runs W warm-up units and N
 * counted ones, so count(N) − count(0) is N units of steady-state work.
 *
 * No runner reads a clock: under callgrind the count must depend on the code
 * alone.
 */
import { StaticGrantSource } from '../../src/kernel/index.js';
import type {
  CatalogueStrategyName,
  ContextToolProvider,
  MediationKernel,
  MemoryAuditSink,
  ToolResult,
} from '../../src/kernel/index.js';
import {
  buildCatalogueSources,
  createCatalogueStrategy,
  createCounters,
  prepareContext,
  resolveAuthority,
  TurnLease,
} from '../../src/kernel/internals.js';
import { notionProvider, referenceGrants, referenceTools, worldContext } from '../../src/world/index.js';
import { buildReferenceKernel } from '../world/build-world.js';
import { buildScaleKernel, generatedProvider } from '../world/scale-world.js';
import { buildScaledKernel, scaledNotionProvider, SCALED_PROVIDER_TOOLS } from '../world/scaled-world.js';
import { TURN_ATTEMPTS } from '../world/workload.js';
import { runKernelTurn, checkOutcome, toolCall, TurnNotListed } from '../world/workload-turn.js';

export const PROBE_UNITS = ['catalogue', 'call', 'invoke', 'list', 'boundary', 'opening', 'mcp'] as const;
export type ProbeUnit = (typeof PROBE_UNITS)[number];
/**
 * `scaled`: the reference provider answers 1,000 more tools, the same handler
 * objects every turn. `unsignalled-2000`: beside the reference world, a host
 * provider of 2,000 tools without a change signal, as most are written (plain
 * definitions held across turns, fresh handlers per call; bench/world/scale-world.ts).
 */
export const PROBE_WORLDS = ['reference', 'scaled', 'unsignalled-2000'] as const;
export type ProbeWorld = (typeof PROBE_WORLDS)[number];

/** A turn's catalogue resolutions: the listing's and one per call of the workload. */
export const CATALOGUE_OPERATIONS = TURN_ATTEMPTS.length + 1;

/**
 * The attempts a harness can make over MCP: all but the forged-trace one (the bridge stamps every call with its turn's
 * trace).
 */
const MCP_ATTEMPTS = TURN_ATTEMPTS.filter((attempt) => attempt.foreignTrace !== true);

/** What one unit of each lane is, and how many operations it holds (what a reader divides by). */
export const UNIT_OPERATIONS: Readonly<Record<ProbeUnit, { readonly per: string; readonly operations: number }>> = {
  catalogue: { per: 'turn (28 resolutions)', operations: 1 },
  call: { per: 'turn (lease, listing, 27 calls)', operations: 1 },
  invoke: { per: 'mediated call', operations: TURN_ATTEMPTS.length },
  list: { per: 'listing', operations: 1 },
  boundary: { per: 'turn boundary (lease open and close)', operations: 1 },
  opening: { per: "turn opening (lease open, the turn's listing, close)", operations: 1 },
  mcp: { per: 'tools/call over MCP', operations: MCP_ATTEMPTS.length },
};

export interface UnitCounts {
  readonly derivations: number;
  readonly providerCalls: number;
  /** kernel.listTools calls (over MCP: the bridge's, counted at the kernel). */
  readonly kernelListings: number;
  readonly invocations: number;
}

export interface UnitRunner {
  run(index: number): Promise<void>;
  counts(): UnitCounts;
  /** Ends whatever the set-up opened (a turn, a connection). */
  close(): Promise<void>;
}

/**
 * The unsignalled world's provider tools (the reference `notion.search` among them): the sweep's N = 2,000 point
 * without a change signal.
 */
const UNSIGNALLED_TOOLS = 2000;

function providerFor(world: ProbeWorld): ContextToolProvider {
  if (world === 'unsignalled-2000') return generatedProvider(0, UNSIGNALLED_TOOLS, false);
  return world === 'scaled' ? scaledNotionProvider(SCALED_PROVIDER_TOOLS) : notionProvider();
}

function kernelFor(
  strategy: CatalogueStrategyName,
  world: ProbeWorld,
): { readonly kernel: MediationKernel; readonly audit: MemoryAuditSink } {
  if (world === 'unsignalled-2000')
    return buildScaleKernel(strategy, { tools: UNSIGNALLED_TOOLS, providers: 1, grants: 6, changeSignal: false });
  return world === 'scaled' ? buildScaledKernel(strategy, SCALED_PROVIDER_TOOLS) : buildReferenceKernel(strategy);
}

/** Counts kernel.listTools calls on this kernel instance, whoever makes them. */
function countListings(kernel: MediationKernel): { readonly listings: number } {
  const tally = { listings: 0 };
  const list = kernel.listTools.bind(kernel);
  kernel.listTools = (context, options) => {
    tally.listings++;
    return list(context, options);
  };
  return tally;
}

function countsOf(kernel: MediationKernel, tally: { readonly listings: number }): UnitCounts {
  const { derivations, providerCalls, invocations } = kernel.counters;
  return { derivations, providerCalls, invocations, kernelListings: tally.listings };
}

export async function unitRunner(
  unit: ProbeUnit,
  strategy: CatalogueStrategyName,
  world: ProbeWorld,
): Promise<UnitRunner> {
  switch (unit) {
    case 'catalogue':
      return catalogueUnit(strategy, world);
    case 'call':
      return callUnit(strategy, world);
    case 'invoke':
      return invokeUnit(strategy, world);
    case 'list':
      return listUnit(strategy, world);
    case 'boundary':
      return boundaryUnit(strategy, world);
    case 'opening':
      return openingUnit(strategy, world);
    case 'mcp':
      return mcpUnit(strategy, world);
  }
}

/**
 * A turn's catalogue resolutions, through the kernel's own strategy and
 * wiring, on a fresh lease; context and authority are turn-boundary work,
 * prepared once in the set-up.
 */
async function catalogueUnit(strategy: CatalogueStrategyName, world: ProbeWorld): Promise<UnitRunner> {
  const counters = createCounters();
  const resolver = createCatalogueStrategy(
    strategy,
    buildCatalogueSources(referenceTools(), [providerFor(world)], counters),
  );
  const prepared = prepareContext(worldContext(0));
  const authority = await resolveAuthority(
    new StaticGrantSource(referenceGrants()),
    prepared,
    new AbortController().signal,
  );
  return {
    async run() {
      const lease = new TurnLease(prepared, false, async () => authority);
      await lease.ready;
      for (let i = 0; i < CATALOGUE_OPERATIONS; i++) {
        const resolved = resolver.resolve(lease, prepared, undefined);
        if (resolved instanceof Promise) await resolved;
      }
      lease.release();
    },
    counts: () => ({
      derivations: counters.derivations,
      providerCalls: counters.providerCalls,
      kernelListings: 0,
      invocations: 0,
    }),
    close: async () => undefined,
  };
}

/** A whole workload turn: lease, listing, 27 calls. */
async function callUnit(strategy: CatalogueStrategyName, world: ProbeWorld): Promise<UnitRunner> {
  const { kernel, audit } = kernelFor(strategy, world);
  const tally = countListings(kernel);
  return {
    async run(turn) {
      await runKernelTurn(kernel, turn, { path: `probe ${strategy}` });
      audit.clear();
    },
    counts: () => countsOf(kernel, tally),
    close: async () => undefined,
  };
}

/** One open turn, listed in the set-up; a unit is the workload's 27 calls in it (ids unique per unit). */
async function invokeUnit(strategy: CatalogueStrategyName, world: ProbeWorld): Promise<UnitRunner> {
  const { kernel, audit } = kernelFor(strategy, world);
  const tally = countListings(kernel);
  const context = worldContext(0);
  const scope = await kernel.openTurnAuthority(context);
  const listed = await kernel.listTools(context);
  if (listed.status !== 'listed') throw new TurnNotListed(`probe invoke: listing ${listed.status}`);
  return {
    async run(index) {
      for (let i = 0; i < TURN_ATTEMPTS.length; i++) {
        const attempt = TURN_ATTEMPTS[i]!;
        const result: ToolResult = await kernel.invokeTool(
          context,
          toolCall(attempt, index, i, context.traceId, context.now),
        );
        checkOutcome('probe invoke', index, i, attempt, {
          status: result.status,
          code: result.status === 'succeeded' ? undefined : result.code,
        });
      }
      audit.clear();
    },
    counts: () => countsOf(kernel, tally),
    close: async () => scope.close(),
  };
}

/** One open turn; a unit is one listing of it. */
async function listUnit(strategy: CatalogueStrategyName, world: ProbeWorld): Promise<UnitRunner> {
  const { kernel, audit } = kernelFor(strategy, world);
  const tally = countListings(kernel);
  const context = worldContext(0);
  const scope = await kernel.openTurnAuthority(context);
  return {
    async run(index) {
      const listed = await kernel.listTools(context);
      if (listed.status !== 'listed') throw new TurnNotListed(`probe list ${index}: listing ${listed.status}`);
      audit.clear();
    },
    counts: () => countsOf(kernel, tally),
    close: async () => scope.close(),
  };
}

/** A unit is one turn boundary: the lease opened (authority loaded) and closed, no operation in between. */
async function boundaryUnit(strategy: CatalogueStrategyName, world: ProbeWorld): Promise<UnitRunner> {
  const { kernel, audit } = kernelFor(strategy, world);
  const tally = countListings(kernel);
  return {
    async run(turn) {
      const scope = await kernel.openTurnAuthority(worldContext(turn));
      if (scope.status !== 'available')
        throw new TurnNotListed(`probe boundary ${turn}: authority ${scope.code ?? 'unavailable'}`);
      scope.close();
      audit.clear();
    },
    counts: () => countsOf(kernel, tally),
    close: async () => undefined,
  };
}

/**
 * A unit is a turn's opening as the sweep times its boundary: the lease
 * opened, the turn's catalogue listed (its derivation, under `turn`), the
 * lease closed. No call: what grows with the provider's tools is here.
 */
async function openingUnit(strategy: CatalogueStrategyName, world: ProbeWorld): Promise<UnitRunner> {
  const { kernel, audit } = kernelFor(strategy, world);
  const tally = countListings(kernel);
  return {
    async run(turn) {
      const context = worldContext(turn);
      const scope = await kernel.openTurnAuthority(context);
      try {
        if (scope.status !== 'available')
          throw new TurnNotListed(`probe opening ${turn}: authority ${scope.code ?? 'unavailable'}`);
        const listed = await kernel.listTools(context);
        if (listed.status !== 'listed') throw new TurnNotListed(`probe opening ${turn}: listing ${listed.status}`);
      } finally {
        scope.close();
      }
      audit.clear();
    },
    counts: () => countsOf(kernel, tally),
    close: async () => undefined,
  };
}

/**
 * The `turn` strategy served over MCP: one OpenToolBridge (one lease, one
 * listing) and one SDK client over the in-memory transport, connected in the
 * set-up; a unit is the 26 tools/call a harness can make.
 */
async function mcpUnit(strategy: CatalogueStrategyName, world: ProbeWorld): Promise<UnitRunner> {
  // Loaded here, not at the top: every lane's process pays for what it imports, in both its N and its 0 run.
  const [{ InMemoryTransport }, { Client }, { OpenToolBridge, McpToolServer }] = await Promise.all([
    import('@modelcontextprotocol/sdk/inMemory.js'),
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('../../src/mcp/index.js'),
  ]);
  const { kernel, audit } = kernelFor(strategy, world);
  const tally = countListings(kernel);
  const bridge = await OpenToolBridge.open(kernel, worldContext(0));
  if (bridge.catalogue.status !== 'listed') throw new TurnNotListed(`probe mcp: listing ${bridge.catalogue.status}`);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = new McpToolServer(bridge);
  const client = new Client({ name: 'costlab-gate-probe', version: '0.1.0' });
  await server.connect(serverSide);
  await client.connect(clientSide);
  await client.listTools();
  return {
    async run(index) {
      for (const attempt of MCP_ATTEMPTS) {
        const result = await client.callTool({ name: attempt.tool, arguments: attempt.arguments });
        const meta = (result._meta ?? {}) as { status?: unknown; code?: unknown };
        checkOutcome('probe mcp', index, TURN_ATTEMPTS.indexOf(attempt), attempt, {
          status: typeof meta.status === 'string' ? meta.status : result.isError === true ? 'error' : 'succeeded',
          code: typeof meta.code === 'string' ? meta.code : undefined,
        });
      }
      audit.clear();
    },
    counts: () => countsOf(kernel, tally),
    async close() {
      await client.close();
      await server.close();
      bridge.close();
    },
  };
}
