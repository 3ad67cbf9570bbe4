/**
 * The turn soak: opens and closes many turns of the per-user world, in
 * waves of concurrent turns, mixing the ways a turn can end badly — a close
 * that races the turn's in-flight registry derivation, a call aborted while
 * its handler runs, a call aborted while the catalogue is still being
 * derived, operations with no lease at all. Afterwards it checks that
 * nothing is held: no lease, no provider handler (and so no registry, whose
 * entries hold them), no context, no scope; and it samples the heap after a
 * full collection at checkpoints so growth can be bounded.
 *
 * Shared by `leak-soak.ts` (100,000 turns, heap bound) and the vitest
 * version (a few thousand turns, structure only).
 */
import { MediationKernel, StaticGrantSource } from '../../src/kernel/index.js';
import type {
  AccessContext,
  AuditEvent,
  AuditSink,
  CatalogueStrategyName,
  KernelCounters,
  ToolHandler,
  ToolResult,
} from '../../src/kernel/index.js';
import {
  PerUserNotesProvider,
  SHARED_TOOL,
  perUserContext,
  perUserGrants,
  sharedClockTool,
  userId,
  userToolName,
} from './per-user-world.js';
import type { ProviderPace } from './per-user-world.js';

export const SOAK_TURN_KINDS = [
  'complete',
  'close-races-derivation',
  'aborted-mid-call',
  'aborted-in-derivation',
  'lease-less',
] as const;
export type SoakTurnKind = (typeof SOAK_TURN_KINDS)[number];

/** Eight turns in a row cover every kind; ordinary turns are the most common, as in life. */
const KIND_CYCLE: readonly SoakTurnKind[] = [
  'complete',
  'close-races-derivation',
  'complete',
  'aborted-mid-call',
  'complete',
  'aborted-in-derivation',
  'close-races-derivation',
  'lease-less',
];

export function soakTurnKind(turn: number): SoakTurnKind {
  return KIND_CYCLE[turn % KIND_CYCLE.length]!;
}

export interface SoakOptions {
  readonly turns: number;
  readonly strategy: CatalogueStrategyName;
  /** Turns in flight at once. */
  readonly concurrency?: number;
  readonly users?: number;
  /** Turn counts after which the heap is sampled (after a full collection). */
  readonly heapCheckpoints?: readonly number[];
  readonly gc: () => void;
  /**
   * A deliberately careless host that never closes every n-th turn, so the
   * soak can be shown to notice a leak: a detector never seen to fire
   * proves nothing.
   */
  readonly forgetToCloseEvery?: number;
}

export interface HeapSample {
  readonly turns: number;
  readonly heapUsedBytes: number;
}

/** Objects the soak watches for collection, by what they are. */
export interface Retention {
  readonly made: number;
  readonly collected: number;
}

export interface SoakReport {
  readonly strategy: CatalogueStrategyName;
  readonly turns: number;
  readonly turnsByKind: Readonly<Record<SoakTurnKind, number>>;
  readonly calls: number;
  readonly abortedCalls: number;
  readonly listings: number;
  readonly listingsCutByClose: number;
  readonly auditByTypeAndOutcome: Readonly<Record<string, number>>;
  readonly counters: Readonly<KernelCounters>;
  readonly openLeases: number;
  readonly retention: Readonly<Record<'handler' | 'context' | 'scope', Retention>>;
  readonly collectionRounds: number;
  readonly heap: readonly HeapSample[];
  /** Every way the run departed from what its turns should have produced; empty on a clean run. */
  readonly problems: readonly string[];
}

/** Counts the trail by type and outcome, keeping no event: a sink that retained events would be the leak. */
class CountingSink implements AuditSink {
  readonly counts = new Map<string, number>();
  write(event: AuditEvent): void {
    const key = `${event.type}:${event.outcome}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }
  count(type: string, outcome?: string): number {
    let n = 0;
    for (const [key, value] of this.counts)
      if (key === `${type}:${outcome}` || (outcome === undefined && key.startsWith(`${type}:`))) n += value;
    return n;
  }
}

function turnOf(context: AccessContext): number {
  return Number(context.turnId?.slice('turn-'.length) ?? -1);
}

/** How the provider answers a turn: slowly enough, in the racing kinds, that the close or the abort lands first. */
function paceFor(context: AccessContext): ProviderPace {
  const kind = soakTurnKind(turnOf(context));
  return kind === 'close-races-derivation' || kind === 'aborted-in-derivation' ? 'macrotask' : 'microtask';
}

const nextMacrotask = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

async function settleCollections(gc: () => void, done: () => boolean, maxRounds: number): Promise<number> {
  for (let round = 1; round <= maxRounds; round++) {
    gc();
    // Finalization callbacks run as tasks after the collection that found their targets dead.
    await nextMacrotask();
    await new Promise((resolve) => setTimeout(resolve, 0));
    if (done()) return round;
  }
  return maxRounds;
}

export async function runTurnSoak(options: SoakOptions): Promise<SoakReport> {
  const { turns, strategy, gc } = options;
  const concurrency = options.concurrency ?? 64;
  const users = options.users ?? 50;
  const checkpoints = new Set(options.heapCheckpoints ?? []);
  const problems: string[] = [];
  const problem = (text: string): void => {
    if (problems.length < 50) problems.push(text);
  };

  const made = { handler: 0, context: 0, scope: 0 };
  const collected = { handler: 0, context: 0, scope: 0 };
  const watcher = new FinalizationRegistry<keyof typeof made>((what) => {
    collected[what]++;
  });
  const watch = <T extends object>(what: keyof typeof made, value: T): T => {
    made[what]++;
    watcher.register(value, what);
    return value;
  };

  const audit = new CountingSink();
  const provider = new PerUserNotesProvider({
    pace: paceFor,
    onHandlers: (handlers: readonly ToolHandler[]) => {
      for (const handler of handlers) watch('handler', handler);
    },
  });
  const kernel = new MediationKernel({
    grantSource: new StaticGrantSource(perUserGrants(users)),
    auditSink: audit,
    tools: [sharedClockTool()],
    providers: [provider],
    catalogueStrategy: strategy,
    onAuditFailure: (error) => problem(`audit outcome not written: ${String(error)}`),
  });

  const forgotten: object[] = [];
  const turnsByKind = Object.fromEntries(SOAK_TURN_KINDS.map((kind) => [kind, 0])) as Record<SoakTurnKind, number>;
  let calls = 0;
  let abortedCalls = 0;
  let listings = 0;
  let listingsCutByClose = 0;

  function expectResult(turn: number, label: string, result: ToolResult, status: ToolResult['status']): void {
    if (result.status !== status)
      problem(
        `turn ${turn} ${label}: ` +
          `${result.status}${result.status === 'succeeded' ? '' : ` ${result.code}`}, expected ${status}`,
      );
  }

  async function expectAbort(turn: number, label: string, pending: Promise<ToolResult>): Promise<void> {
    try {
      const result = await pending;
      problem(`turn ${turn} ${label}: resolved ${result.status} although aborted`);
    } catch (error) {
      if (!(error instanceof Error) || error.name !== 'AbortError')
        problem(`turn ${turn} ${label}: rejected with ${String(error)}, not an abort`);
      abortedCalls++;
    }
  }

  async function runTurn(turn: number): Promise<void> {
    const kind = soakTurnKind(turn);
    turnsByKind[kind]++;
    const user = turn % users;
    let step = 0;
    const context = (): AccessContext => watch('context', perUserContext(user, turn, step++));
    const call = (tool: string, args: Record<string, unknown>) => ({
      id: `t${turn}-${tool}`,
      tool,
      arguments: args,
      traceId: `trace-${turn}`,
      requestedAt: perUserContext(user, turn).now,
    });
    const readOwn = call(userToolName(user, 'read'), { path: [userId(user), 'notes.md'] });

    if (kind === 'lease-less') {
      listings++;
      const listing = await kernel.listTools(context());
      if (listing.status !== 'listed') problem(`turn ${turn} lease-less listing: ${listing.status}`);
      calls++;
      expectResult(turn, 'lease-less read', await kernel.invokeTool(context(), readOwn), 'succeeded');
      return;
    }

    const scope = watch('scope', await kernel.openTurnAuthority(context()));
    if (scope.status !== 'available') problem(`turn ${turn}: authority ${scope.status}`);
    switch (kind) {
      case 'complete': {
        listings++;
        const listing = await kernel.listTools(context());
        if (listing.tools.length !== 5) problem(`turn ${turn}: listed ${listing.tools.length} tools`);
        calls += 2;
        const [read, clock] = await Promise.all([
          kernel.invokeTool(context(), readOwn),
          kernel.invokeTool(context(), call(SHARED_TOOL, {})),
        ]);
        expectResult(turn, 'read', read, 'succeeded');
        expectResult(turn, 'clock', clock, 'succeeded');
        break;
      }
      case 'close-races-derivation': {
        listings++;
        const pending = kernel.listTools(context());
        // Close at four different moments against a provider that answers a macrotask later: the first
        // three land before the derivation settles, the last usually after it.
        const moment = Math.floor(turn / KIND_CYCLE.length) % 4;
        if (moment === 1) await Promise.resolve();
        for (let i = 0; i < (moment === 2 ? 1 : moment === 3 ? 3 : 0); i++) await nextMacrotask();
        scope.close();
        const listing = await pending;
        // The close below, after the switch, is then a second close: a no-op, which is part of what is soaked.
        if (listing.status === 'failed' && listing.code === 'tool_catalog_unavailable') listingsCutByClose++;
        else if (listing.status !== 'listed')
          problem(`turn ${turn}: listing cut by close answered ${listing.status} ${listing.code ?? ''}`);
        break;
      }
      case 'aborted-mid-call': {
        listings++;
        await kernel.listTools(context());
        calls++;
        const controller = new AbortController();
        const pending = kernel.invokeTool(context(), call(userToolName(user, 'wait'), { path: [userId(user)] }), {
          signal: controller.signal,
        });
        await nextMacrotask();
        controller.abort();
        await expectAbort(turn, 'wait', pending);
        break;
      }
      case 'aborted-in-derivation': {
        calls++;
        const controller = new AbortController();
        const pending = kernel.invokeTool(context(), readOwn, { signal: controller.signal });
        await Promise.resolve();
        controller.abort();
        await expectAbort(turn, 'read during derivation', pending);
        break;
      }
    }
    if (
      options.forgetToCloseEvery !== undefined &&
      turn % options.forgetToCloseEvery === 0 &&
      kind !== 'close-races-derivation'
    ) {
      forgotten.push(scope);
      return;
    }
    scope.close();
  }

  const heap: HeapSample[] = [];
  for (let started = 0; started < turns; ) {
    const wave = Math.min(concurrency, turns - started);
    const running: Promise<void>[] = [];
    for (let i = 0; i < wave; i++) running.push(runTurn(started + i));
    await Promise.all(running);
    started += wave;
    if ([...checkpoints].some((at) => at > started - wave && at <= started)) {
      await settleCollections(gc, () => true, 1);
      gc();
      heap.push({ turns: started, heapUsedBytes: process.memoryUsage().heapUsed });
    }
  }

  const allCollected = (): boolean =>
    collected.handler === made.handler && collected.context === made.context && collected.scope === made.scope;
  const collectionRounds = await settleCollections(gc, allCollected, 20);

  // The trail, checked against what the turns did: every call exactly one tool.invoked, every abort an interrupted one.
  if (kernel.openLeases !== 0) problem(`${kernel.openLeases} leases still open`);
  if (audit.count('tool.invoked') !== calls)
    problem(`${audit.count('tool.invoked')} tool.invoked records for ${calls} calls`);
  if (audit.count('tool.invoked', 'interrupted') !== abortedCalls)
    problem(`${audit.count('tool.invoked', 'interrupted')} interrupted records for ${abortedCalls} aborted calls`);
  if (audit.count('tool.catalog.listed') !== listings)
    problem(`${audit.count('tool.catalog.listed')} listing records for ${listings} listings`);
  if (kernel.counters.authorityLoads !== turns + turnsByKind['lease-less'])
    problem(`${kernel.counters.authorityLoads} authority loads for ${turns} turns`);
  for (const what of ['handler', 'context', 'scope'] as const) {
    if (collected[what] !== made[what])
      problem(
        `${made[what] - collected[what]} of ${made[what]} ${what} ` +
          `objects still held after ${collectionRounds} full collections`,
      );
  }

  return {
    strategy,
    turns,
    turnsByKind,
    calls,
    abortedCalls,
    listings,
    listingsCutByClose,
    auditByTypeAndOutcome: Object.fromEntries([...audit.counts].sort()),
    counters: { ...kernel.counters },
    openLeases: kernel.openLeases,
    retention: {
      handler: { made: made.handler, collected: collected.handler },
      context: { made: made.context, collected: collected.context },
      scope: { made: made.scope, collected: collected.scope },
    },
    collectionRounds,
    heap,
    problems,
  };
}
