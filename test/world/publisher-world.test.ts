/**
 * The two worlds' structure: tool counts and the provider split, grants and
 * their load order, the audit sink, the large provider definition, and the
 * reference shape building exactly the reference world. Bad shapes are
 * refused naming the field and the value they were given.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { ContractViolation, MemoryAuditSink, publishTool } from '../../src/kernel/index.js';
import { referenceGrants } from '../../src/world/reference-world.js';
import { buildReferenceKernel } from '../../bench/world/build-world.js';
import {
  buildShapedKernel,
  parseWorldShape,
  PUBLISHER_SHAPE,
  REFERENCE_SHAPE,
  shapedWorldParts,
} from '../../bench/world/publisher-world.js';
import type { ShapedKernel } from '../../bench/world/publisher-world.js';
import { runKernelTurn } from '../../bench/world/workload-turn.js';
import { TURN_ATTEMPTS } from '../../bench/world/workload.js';

const built: ShapedKernel[] = [];
afterEach(() => {
  for (const world of built.splice(0)) world.close();
});

function build(shape = PUBLISHER_SHAPE, strategy: 'rederive' | 'shared' | 'turn' = 'turn'): ShapedKernel {
  const world = buildShapedKernel(strategy, shape);
  built.push(world);
  return world;
}

describe('the publisher-shaped world', () => {
  it(
    'has 19 definitions, 18 static and 1 from the provider, ' +
      "120 grants with the actor's own six last, and a file trail",
    async () => {
      const parts = shapedWorldParts(PUBLISHER_SHAPE);
      const provided = await parts.provider.listTools({} as never, new AbortController().signal);
      expect(parts.tools).toHaveLength(18);
      expect(provided.map((tool) => tool.definition.name)).toEqual(['notion.search']);
      expect(parts.grants).toHaveLength(120);
      expect(parts.grants.slice(-6).map((grant) => grant.id)).toEqual(referenceGrants().map((grant) => grant.id));
      expect(new Set(parts.grants.map((grant) => grant.id)).size).toBe(120);
      const world = build();
      expect(world.shape.sink).toBe('file');
      expect(world.trailFile).toMatch(/audit\.jsonl$/);
    },
  );

  it(
    'serves 17 of them to the bench actor and runs the whole ' +
      'workload with the outcomes it declares, under every strategy',
    async () => {
      for (const strategy of ['rederive', 'shared', 'turn'] as const) {
        const world = build(PUBLISHER_SHAPE, strategy);
        const turn = await runKernelTurn(world.kernel, 1, { path: `publisher ${strategy}` });
        expect(turn.listed.tools).toHaveLength(17);
        expect(world.provider.calls).toBe(strategy === 'turn' ? 1 : 1 + TURN_ATTEMPTS.length - 1);
      }
    },
  );

  it('makes notion.search the large definition: about four static definitions in published bytes', async () => {
    const parts = shapedWorldParts(PUBLISHER_SHAPE);
    const [search] = await parts.provider.listTools({} as never, new AbortController().signal);
    const bytes = (definition: Parameters<typeof publishTool>[0]) => JSON.stringify(publishTool(definition)).length;
    const staticMean = parts.tools.reduce((sum, tool) => sum + bytes(tool.definition), 0) / parts.tools.length;
    expect(bytes(search!.definition) / staticMean).toBeGreaterThan(3.5);
    expect(bytes(search!.definition) / staticMean).toBeLessThan(4.5);
  });

  it("parses arguments by the tool's own schema: an option the schema names passes, an unknown key fails", async () => {
    const parts = shapedWorldParts(PUBLISHER_SHAPE);
    const [search] = await parts.provider.listTools({} as never, new AbortController().signal);
    expect(
      search!.parseArguments({ path: ['Handbook'], query: 'x', page_size: 5, sort: [{ timestamp: 'created_time' }] }),
    ).toMatchObject({ page_size: 5 });
    expect(() => search!.parseArguments({ path: ['Handbook'], query: 'x', page_size: 500 })).toThrow(/input schema/);
    expect(() => search!.parseArguments({ path: ['Handbook'], query: 'x', grant: 'forged' })).toThrow(/input schema/);
  });

  it('writes its trail to a JSON-lines file: two records a call and the turn boundary, cut between turns', async () => {
    const world = build();
    await runKernelTurn(world.kernel, 1, { path: 'publisher turn' });
    const file = world.trailFile!;
    world.flushTrail();
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(lines.length).toBe(world.kernel.counters.auditEvents);
    expect(JSON.parse(lines[0]!)).toHaveProperty('type');
    world.clearTrail();
    expect(readFileSync(file, 'utf8')).toBe('');
  });

  it("grows along the map's two axes: provider tools beside the 18 static ones, grants to the spec's 256", async () => {
    const shape = parseWorldShape({ ...PUBLISHER_SHAPE, tools: 22, providerTools: 4, grants: 256 });
    const parts = shapedWorldParts(shape);
    expect(parts.tools).toHaveLength(18);
    expect(await parts.provider.listTools({} as never, new AbortController().signal)).toHaveLength(4);
    expect(parts.grants).toHaveLength(256);
  });
});

describe('the reference shape', () => {
  it('builds the reference world exactly: the same catalogue, grants and in-memory trail', async () => {
    const shaped = build(REFERENCE_SHAPE);
    const reference = buildReferenceKernel('turn');
    const a = await runKernelTurn(shaped.kernel, 1, { path: 'reference shape' });
    const b = await runKernelTurn(reference.kernel, 1, { path: 'reference world' });
    expect(a.listed.catalogHash).toBe(b.listed.catalogHash);
    expect(shaped.kernel.counters.auditEvents).toBe(reference.kernel.counters.auditEvents);
    expect(shapedWorldParts(REFERENCE_SHAPE).grants.map((grant) => grant.id)).toEqual(
      referenceGrants().map((grant) => grant.id),
    );
    expect(reference.audit).toBeInstanceOf(MemoryAuditSink);
  });
});

describe('a shape that cannot be a world', () => {
  it.each([
    [{ grants: -3 }, /grants: .*got -3/],
    [{ providerTools: -1 }, /providerTools: .*got -1/],
    [{ providerTools: 30 }, /providerTools: 30 provider tools is more than the world's 19 tools/],
    [
      { tools: 20, providerTools: 5 },
      /providerTools: 5 provider tools of 20 leaves 15 static tools; the workload calls 18/,
    ],
    [{ sink: 'syslog' }, /sink: .*got "syslog"/],
    [{ grants: 300 }, /grants: .*<=256, got 300/],
  ])('%j is refused naming the field and the value', (bad, message) => {
    expect(() => parseWorldShape({ ...PUBLISHER_SHAPE, ...bad })).toThrow(ContractViolation);
    expect(() => parseWorldShape({ ...PUBLISHER_SHAPE, ...bad })).toThrow(message);
  });

  it('is refused by the builder too, before a kernel is made', () => {
    expect(() => buildShapedKernel('turn', { ...PUBLISHER_SHAPE, sink: 'syslog' } as never)).toThrow(
      /sink: .*got "syslog"/,
    );
  });
});
