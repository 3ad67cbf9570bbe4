/**
 * Isolation under load: 1,000 concurrent turns of 50 users, each user with a
 * catalogue only their own provider answers. Calls of all turns interleave
 * (random yields between every step), and every strategy is run, because a
 * strategy that held state in the wrong place — on the kernel instead of the
 * lease, or on a lease keyed too loosely — would show here as one user's
 * tool listed, run or hashed in another user's turn.
 */
import { describe, expect, it } from 'vitest';
import { mulberry32, randomIndex } from '../../bench/gate/prng.js';
import type { Random } from '../../bench/gate/prng.js';
import { CATALOGUE_STRATEGIES, MediationKernel, MemoryAuditSink, StaticGrantSource } from '../../src/kernel/index.js';
import type { CatalogueStrategyName, JsonObject, ListedCatalogue, ToolResult } from '../../src/kernel/index.js';
import {
  PerUserNotesProvider,
  SHARED_TOOL,
  USER_TOOL_VERBS,
  perUserContext,
  perUserGrants,
  sharedClockTool,
  toolOwner,
  userId,
  userToolName,
} from '../../scripts/reliability/per-user-world.js';
import type { HandlerRun } from '../../scripts/reliability/per-user-world.js';

const USERS = 50;
const TURNS = 1_000;

interface PlannedCall {
  readonly tool: string;
  readonly arguments: JsonObject;
  readonly expect: { readonly status: ToolResult['status']; readonly code?: string };
}

interface TurnRecord {
  readonly turn: number;
  readonly user: number;
  readonly traceId: string;
  readonly listing: ListedCatalogue;
  readonly calls: readonly PlannedCall[];
  readonly results: readonly ToolResult[];
}

/**
 * Gives the event loop away 0–3 times, as microtasks or macrotasks, so the turns' steps interleave differently each
 * time.
 */
async function yieldRandomly(random: Random): Promise<void> {
  const times = randomIndex(random, 4);
  for (let i = 0; i < times; i++) {
    if (random() < 0.5) await Promise.resolve();
    else await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

function shuffled<T>(items: readonly T[], random: Random): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = randomIndex(random, i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** A turn's calls: its own tools granted and refused, the shared tool, and another user's tool by name. */
function plannedCalls(user: number, other: number): PlannedCall[] {
  const own = userId(user);
  const theirs = userId(other);
  return [
    { tool: userToolName(user, 'read'), arguments: { path: [own, 'diary.md'] }, expect: { status: 'succeeded' } },
    { tool: userToolName(user, 'search'), arguments: { path: [own], query: 'plans' }, expect: { status: 'succeeded' } },
    {
      tool: userToolName(user, 'write'),
      arguments: { path: [own, 'drafts', 'todo.md'], content: 'x' },
      expect: { status: 'succeeded' },
    },
    {
      tool: userToolName(user, 'write'),
      arguments: { path: [own, 'diary.md'], content: 'x' },
      expect: { status: 'denied', code: 'no_matching_grant' },
    },
    { tool: SHARED_TOOL, arguments: {}, expect: { status: 'succeeded' } },
    // Another user's tool, named outright: not in this turn's registry at all.
    {
      tool: userToolName(other, 'read'),
      arguments: { path: [theirs, 'diary.md'] },
      expect: { status: 'denied', code: 'tool_unavailable' },
    },
    // The user's own tool aimed at another user's notes: outside the tool's declared ceiling.
    {
      tool: userToolName(user, 'read'),
      arguments: { path: [theirs, 'diary.md'] },
      expect: { status: 'failed', code: 'invalid_tool_requirement' },
    },
  ];
}

async function runLoad(strategy: CatalogueStrategyName, seed: number) {
  const random = mulberry32(seed);
  const runs: HandlerRun[] = [];
  const provider = new PerUserNotesProvider({
    onRun: (run) => runs.push(run),
    pace: () => (random() < 0.5 ? 'macrotask' : 'microtask'),
  });
  const audit = new MemoryAuditSink();
  const kernel = new MediationKernel({
    grantSource: new StaticGrantSource(perUserGrants(USERS)),
    auditSink: audit,
    tools: [sharedClockTool()],
    providers: [provider],
    catalogueStrategy: strategy,
  });

  async function turn(t: number): Promise<TurnRecord> {
    const user = t % USERS;
    let step = 0;
    const context = () => perUserContext(user, t, step++);
    const traceId = context().traceId;
    const scope = await kernel.openTurnAuthority(context());
    try {
      await yieldRandomly(random);
      const listing = await kernel.listTools(context());
      const other = (user + 1 + randomIndex(random, USERS - 1)) % USERS;
      const calls = shuffled(plannedCalls(user, other), random);
      const results = await Promise.all(
        calls.map(async (call, i) => {
          await yieldRandomly(random);
          return kernel.invokeTool(context(), {
            id: `t${t}-c${i}`,
            tool: call.tool,
            arguments: call.arguments,
            traceId,
            requestedAt: context().now,
          });
        }),
      );
      return { turn: t, user, traceId, listing, calls, results };
    } finally {
      scope.close();
    }
  }

  const turns = await Promise.all(Array.from({ length: TURNS }, (_, t) => turn(t)));
  return { kernel, audit, provider, runs, turns };
}

describe.each(CATALOGUE_STRATEGIES.map((strategy, i) => [strategy, 0x5eed + i] as const))(
  'isolation under load, strategy %s',
  (strategy, seed) => {
    it(`${TURNS} concurrent turns of ${USERS} users never cross catalogues, calls or audit records`, async () => {
      const { kernel, audit, provider, runs, turns } = await runLoad(strategy, seed);
      const callCount = turns.reduce((n, t) => n + t.calls.length, 0);

      // Every turn listed exactly its own user's tools and the shared one.
      const hashByUser = new Map<number, string>();
      for (const t of turns) {
        expect(t.listing.status).toBe('listed');
        const names = t.listing.tools.map((tool) => tool.name);
        expect(names).toEqual([SHARED_TOOL, ...USER_TOOL_VERBS.map((verb) => userToolName(t.user, verb)).sort()]);
        for (const name of names) expect([undefined, userId(t.user)]).toContain(toolOwner(name));
        const seen = hashByUser.get(t.user);
        if (seen === undefined) hashByUser.set(t.user, t.listing.catalogHash);
        else expect(t.listing.catalogHash).toBe(seen);
      }
      // One catalogue per user, and no two users share one.
      expect(new Set(hashByUser.values()).size).toBe(USERS);

      // Every call answered as its own turn's catalogue and grants say it must be.
      for (const t of turns) {
        t.calls.forEach((call, i) => {
          const result = t.results[i]!;
          expect({ tool: call.tool, status: result.status, code: 'code' in result ? result.code : undefined }).toEqual({
            tool: call.tool,
            status: call.expect.status,
            code: call.expect.code,
          });
          if (result.status === 'succeeded' && call.tool !== SHARED_TOOL)
            expect((result.output as JsonObject).owner).toBe(userId(t.user));
        });
      }

      // Every handler that ran was made for the user who invoked it, in the turn that invoked it.
      const successfulUserCalls = turns.reduce(
        (n, t) => n + t.results.filter((r) => r.status === 'succeeded' && r.tool !== SHARED_TOOL).length,
        0,
      );
      expect(runs).toHaveLength(successfulUserCalls);
      expect(runs.filter((run) => run.madeFor !== run.invokedBy || run.madeInTrace !== run.invokedInTrace)).toEqual([]);

      // The trail: per turn, one listing and one tool.invoked per call, each stamped with that turn's catalogHash.
      const byTrace = new Map(turns.map((t) => [t.traceId, t]));
      const invoked = audit.ofType('tool.invoked');
      expect(invoked).toHaveLength(callCount);
      const invokedPerTrace = new Map<string, number>();
      for (const event of invoked) {
        const t = byTrace.get(event.traceId!)!;
        expect(event.actor).toEqual({ kind: 'human', userId: userId(t.user) });
        expect(event.catalogHash).toBe(t.listing.catalogHash);
        expect(event.operationId?.startsWith(`t${t.turn}-`)).toBe(true);
        invokedPerTrace.set(event.traceId!, (invokedPerTrace.get(event.traceId!) ?? 0) + 1);
      }
      for (const t of turns) expect(invokedPerTrace.get(t.traceId)).toBe(t.calls.length);
      const listed = audit.ofType('tool.catalog.listed');
      expect(listed).toHaveLength(TURNS);
      for (const event of listed) expect(event.catalogHash).toBe(byTrace.get(event.traceId!)!.listing.catalogHash);
      for (const event of audit.ofType('authorization.checked')) {
        const t = byTrace.get(event.traceId!)!;
        expect(event.actor).toEqual({ kind: 'human', userId: userId(t.user) });
        const resource = event.resource as { namespace: string; path: string[] };
        if (resource.namespace === 'notes') expect(resource.path[0]).toBe(userId(t.user));
      }

      // Structure: every lease closed; derivations as the strategy promises.
      expect(kernel.openLeases).toBe(0);
      const operationsResolvingACatalogue = TURNS + callCount;
      const expectedDerivations = strategy === 'turn' ? TURNS : operationsResolvingACatalogue;
      expect(kernel.counters.derivations).toBe(expectedDerivations);
      expect(provider.calls).toBe(expectedDerivations);
      expect(kernel.counters.authorityLoads).toBe(TURNS);
    });
  },
);
