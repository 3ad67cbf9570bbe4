/**
 * ADR 0074: under `turn`, one tool given new content costs the boundary what
 * changed. The new shape is made from the last one (same names at the same
 * places: no sort, no name index built), and the catalogue's hash is taken on
 * from the sha-256 state kept where the new kept list first differs from a
 * recent one. These tests hold both fast paths to the full computation: every
 * hash equal to sha-256 of the canonical published catalogue computed from
 * scratch, every listing judged by this user's grants (a changed tool's new
 * ceiling or namespace included), a mutated array re-derived, never stale,
 * and nothing crossing users. Structure is asserted through counts
 * (`shapesDerived`, tools read for the hash), never time.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ToolRegistry, canonicalJson, catalogHash, publishTool, sha256Hex } from '../../src/kernel/index.js';
import type {
  AccessContext,
  ContextToolProvider,
  ListedCatalogue,
  MediationKernel,
  ToolDefinition,
  ToolHandler,
} from '../../src/kernel/index.js';
import { checkpointCounts } from '../../src/kernel/catalogue/hash-checkpoints.js';
import { markSortedRegistered } from '../../src/kernel/registry/registered-definitions.js';
import { labelledHandler } from './support/host-provider.js';
import { BOB, context, grant, listAndCall, makeWorld, tool } from './support/world.js';

/** Enough tools, with long enough descriptions, that the catalogue's text spans several hash chunks (64 K chars). */
const TOOLS = 600;
const LONG = 'Reads one area of the project folder and answers with what it holds. '.repeat(6);

function definitionOf(i: number, overrides: Partial<ToolDefinition> = {}): ToolDefinition {
  return {
    ...tool({
      name: `docs.t${String(i).padStart(4, '0')}`,
      source: 'provider:host',
      ceilingPath: [`area${i % 3}`],
      description: `${LONG}(${i})`,
    }).definition,
    ...overrides,
  };
}

/** A host provider without a signal: definitions held across turns (tests replace them), fresh handlers per call. */
function hostProvider() {
  const definitions = Array.from({ length: TOOLS }, (_, i) => definitionOf(i));
  let calls = 0;
  const provider: ContextToolProvider & { definitions: ToolDefinition[] } = {
    id: 'host',
    definitions,
    async listTools(): Promise<readonly ToolHandler[]> {
      calls++;
      return provider.definitions.map((definition) => labelledHandler(definition, `v${calls}`));
    },
  };
  return provider;
}

/** SPEC §1.7 from scratch: the published form of each kept tool, as listed (name order), as one canonical JSON text. */
function scratchHash(listed: ListedCatalogue): string {
  return sha256Hex(canonicalJson(listed.tools.map((definition) => publishTool(definition))));
}

function turn(kernel: MediationKernel, ctx: AccessContext, toolName = 'docs.t0004') {
  return listAndCall(kernel, ctx, toolName, { path: ['area1'] });
}

function work(kernel: MediationKernel) {
  const { shapesBuilt, shapesDerived, definitionsCompiled } = kernel.counters;
  return { shapesBuilt, shapesDerived, definitionsCompiled, toolsRead: checkpointCounts.toolsRead };
}

describe('one tool given new content (turn, provider without a signal)', () => {
  it('derives the shape from the last one and hashes on from a kept state: the full computation', async () => {
    const provider = hostProvider();
    const { kernel } = makeWorld({ providers: [provider], tools: [] });
    let t = 0;
    // Two turns take the host's objects as values (ADR 0046); from then on only the changed tool is new.
    for (; t < 2; t++) await turn(kernel, context({ turn: String(t) }));
    for (const at of [TOOLS - 1, TOOLS / 2, 0, TOOLS / 2, TOOLS / 2 + 1]) {
      provider.definitions[at] = definitionOf(at, { description: `Revised on turn ${t}.` });
      const before = work(kernel);
      const { listed, result } = await turn(kernel, context({ turn: String(t++) }));
      expect(listed.catalogHash).toBe(scratchHash(listed));
      expect(listed.tools.find((d) => d.name === `docs.t${String(at).padStart(4, '0')}`)!.description).toBe(
        `Revised on turn ${t - 1}.`,
      );
      expect(result).toMatchObject({ status: 'succeeded', output: { served: `v${t}` } });
      const after = work(kernel);
      expect(after).toMatchObject({
        shapesBuilt: before.shapesBuilt + 1,
        shapesDerived: before.shapesDerived + 1,
        definitionsCompiled: before.definitionsCompiled + 1,
      });
      // Only the chunk holding the change is built again: the tools after it are fed the bytes kept for them.
      expect(after.toolsRead - before.toolsRead).toBeLessThan(TOOLS / 3);
    }
    // An unchanged turn after it: the listing and its hash remembered, nothing read.
    const before = work(kernel);
    const again = await turn(kernel, context({ turn: String(t++) }));
    expect(again.listed.catalogHash).toBe(scratchHash(again.listed));
    expect(work(kernel)).toEqual(before);
    // Back to content of an earlier turn, in a new object: known by its text (no compile), so the recent shape built
    // for that content is found, not derived, and the hash is that turn's.
    const earlier = provider.definitions[TOOLS / 2 + 1]!;
    provider.definitions[TOOLS / 2 + 1] = definitionOf(TOOLS / 2 + 1);
    const reverted = await turn(kernel, context({ turn: String(t++) }));
    expect(reverted.listed.catalogHash).toBe(scratchHash(reverted.listed));
    provider.definitions[TOOLS / 2 + 1] = { ...earlier };
    const counted = work(kernel);
    const back = await turn(kernel, context({ turn: String(t++) }));
    expect(back.listed.catalogHash).toBe(again.listed.catalogHash);
    expect(work(kernel)).toMatchObject({
      shapesBuilt: counted.shapesBuilt,
      shapesDerived: counted.shapesDerived,
      definitionsCompiled: counted.definitionsCompiled,
    });
  });

  it('a tool added, removed or renamed builds the shape in full; the hash is still the full computation', async () => {
    const provider = hostProvider();
    const { kernel } = makeWorld({ providers: [provider], tools: [] });
    for (let t = 0; t < 2; t++) await turn(kernel, context({ turn: String(t) }));
    const edits: ((list: ToolDefinition[]) => void)[] = [
      (list) => list.splice(TOOLS / 2, 0, definitionOf(TOOLS + 1)),
      (list) => list.splice(10, 1),
      (list) => list.splice(TOOLS / 3, 1, definitionOf(TOOLS + 2)),
      (list) => list.push(definitionOf(TOOLS + 3)),
    ];
    for (const [e, edit] of edits.entries()) {
      edit(provider.definitions);
      const before = work(kernel);
      const { listed } = await turn(kernel, context({ turn: `edit${e}` }));
      expect(listed.catalogHash).toBe(scratchHash(listed));
      expect(listed.tools).toHaveLength(provider.definitions.length);
      expect(work(kernel)).toMatchObject({ shapesBuilt: before.shapesBuilt + 1, shapesDerived: before.shapesDerived });
    }
  });

  it("a changed tool's new ceiling and namespace are judged by the filter, as in a full build", async () => {
    const provider = hostProvider();
    // Ada may read area0 and area1 only: a third of the tools (area2) is withheld.
    const { kernel } = makeWorld({
      providers: [provider],
      tools: [],
      grants: [grant({ id: 'g-0', path: ['area0'] }), grant({ id: 'g-1', path: ['area1'] })],
    });
    for (let t = 0; t < 2; t++) await turn(kernel, context({ turn: String(t) }));
    const name = 'docs.t0004'; // area1: listed
    const listedNames = (listed: ListedCatalogue) => listed.tools.map((d) => d.name);
    const cases: { overrides: Partial<ToolDefinition>; listed: boolean }[] = [
      // A ceiling no other tool has (a new filter class), under no grant: withheld.
      {
        overrides: { requiredCapability: { resource: { namespace: 'docs', path: ['secret'] }, action: 'read' } },
        listed: false,
      },
      // Back to a ceiling the grants cover.
      { overrides: { description: 'back' }, listed: true },
      // Moved to a namespace the context does not enable (a new namespace for the shape): withheld.
      { overrides: { namespace: 'billing' }, listed: false },
      // A ceiling of area2 (a class the shape has, under no grant): withheld.
      {
        overrides: { requiredCapability: { resource: { namespace: 'docs', path: ['area2'] }, action: 'read' } },
        listed: false,
      },
    ];
    for (const [c, { overrides, listed: shown }] of cases.entries()) {
      provider.definitions[4] = definitionOf(4, { ...overrides, description: `${overrides.description ?? 'x'}${c}` });
      const before = work(kernel);
      const { listed, result } = await turn(kernel, context({ turn: `case${c}` }), name);
      expect(work(kernel).shapesDerived).toBe(before.shapesDerived + 1);
      expect(listedNames(listed).includes(name)).toBe(shown);
      expect(listed.withheldCount).toBe(TOOLS / 3 + (shown ? 0 : 1));
      expect(listed.catalogHash).toBe(scratchHash(listed));
      // The call is judged against the same definition the listing was.
      expect(result.status).toBe(shown ? 'succeeded' : 'denied');
    }
  });

  it('the same array object, one element replaced in place, is re-derived: the new content, never stale', async () => {
    const definitions = Array.from({ length: TOOLS }, (_, i) => definitionOf(i));
    const handlers: ToolHandler[] = definitions.map((definition) => labelledHandler(definition, 'same-array'));
    const provider: ContextToolProvider = { id: 'same-array', listTools: async () => handlers };
    const { kernel } = makeWorld({ providers: [provider], tools: [] });
    for (let t = 0; t < 2; t++) await turn(kernel, context({ turn: String(t) }));
    for (let round = 0; round < 3; round++) {
      handlers[7] = labelledHandler(definitionOf(7, { description: `replaced ${round}` }), 'same-array');
      const before = work(kernel);
      const { listed } = await turn(kernel, context({ turn: `r${round}` }));
      expect(listed.tools.find((d) => d.name === 'docs.t0007')!.description).toBe(`replaced ${round}`);
      expect(listed.catalogHash).toBe(scratchHash(listed));
      expect(work(kernel).shapesDerived).toBe(before.shapesDerived + 1);
    }
    // Handed a second time, the element's definition is taken as a value (frozen): an edit in place is refused.
    await turn(kernel, context({ turn: 'second-sight' }));
    const taken = handlers[7]!.definition as { description: string };
    expect(() => {
      taken.description = 'edited in place';
    }).toThrow(TypeError);
    const { listed } = await turn(kernel, context({ turn: 'after-edit' }));
    expect(listed.tools.find((d) => d.name === 'docs.t0007')!.description).toBe('replaced 2');
    expect(listed.catalogHash).toBe(scratchHash(listed));
  });

  it('two users over one provider, different grants, interleaved with changes: each listing is its own', async () => {
    const provider = hostProvider();
    const { kernel } = makeWorld({
      providers: [provider],
      tools: [],
      // Ada reads all of docs; Bob only area0.
      grants: [grant({ id: 'g-ada' }), { ...grant({ id: 'g-bob', path: ['area0'] }), subject: BOB }],
    });
    const users = [
      ['ada', context().actor, () => true],
      ['bob', BOB, (name: string) => Number(name.slice('docs.t'.length)) % 3 === 0],
    ] as const;
    for (let round = 0; round < 4; round++) {
      // Round 0 and 1 take the definitions as values; from then on each round changes one tool.
      if (round >= 2) provider.definitions[round * 3] = definitionOf(round * 3, { description: `round ${round}` });
      for (const [who, actor, sees] of users) {
        const ctx: AccessContext = { ...context({ turn: `${who}${round}` }), actor };
        const { listed, result } = await turn(kernel, ctx, 'docs.t0003');
        const names = listed.tools.map((d) => d.name);
        expect(names).toEqual(provider.definitions.map((d) => d.name).filter((name) => sees(name)));
        expect(listed.catalogHash).toBe(scratchHash(listed));
        // The call is answered by this turn's own handler.
        expect(result).toMatchObject({
          status: who === 'ada' || sees('docs.t0003') ? 'succeeded' : 'denied',
        });
      }
    }
    expect(kernel.counters.shapesDerived).toBeGreaterThan(0);
  });
});

describe('the catalogue hash from kept sha-256 states', () => {
  // Registered definitions (deep-frozen, content-addressed) as the registry makes them, in name order.
  const registry = new ToolRegistry();
  for (let i = 0; i < 300; i++) registry.register(labelledHandler(definitionOf(i), 'pool'));
  const pool = registry.list().map((entry) => entry.definition);

  it('equals sha-256 of the whole canonical text for any run of lists sharing prefixes with earlier ones', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ from: fc.nat({ max: 299 }), to: fc.nat({ max: 300 }), drop: fc.nat({ max: 40 }) }), {
          minLength: 1,
          maxLength: 6,
        }),
        (steps) => {
          for (const { from, to, drop } of steps) {
            // A run of the pool with one stretch left out: prefixes shared with earlier lists at every length.
            const list = pool
              .slice(0, Math.min(from, to))
              .concat(pool.slice(Math.min(from, to) + drop, Math.max(to, from)));
            const frozen = Object.freeze(list);
            markSortedRegistered(frozen);
            expect(catalogHash(frozen)).toBe(sha256Hex(canonicalJson(frozen.map((d) => publishTool(d)))));
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});
