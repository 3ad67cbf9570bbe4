/**
 * The gate's probe and the microbenchmarks build their catalogue through the
 * kernel's own wiring (`buildCatalogueSources`, exported for them by
 * `src/kernel/internals.ts`). Before, both re-created it and passed the host's
 * raw handlers where the kernel passes its registered entries, so under
 * `rederive` a definition the host mutated after construction reached the
 * probe's catalogue and not the kernel's.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MediationKernel, MemoryAuditSink, StaticGrantSource } from '../../src/kernel/index.js';
import type { CatalogueStrategyName, ToolHandler } from '../../src/kernel/index.js';
import {
  buildCatalogueSources,
  createCatalogueStrategy,
  createCounters,
  prepareContext,
  TurnLease,
  resolveAuthority,
} from '../../src/kernel/internals.js';
import { notionProvider, referenceGrants, referenceTools, worldContext } from '../../src/world/reference-world.js';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The registry a strategy resolves, with the host's objects mutated after wiring. */
async function probeRegistry(strategy: CatalogueStrategyName, handlers: ToolHandler[]) {
  const counters = createCounters();
  const resolver = createCatalogueStrategy(strategy, buildCatalogueSources(handlers, [notionProvider()], counters));
  mutateHost(handlers);
  const prepared = prepareContext(worldContext(0));
  const authority = await resolveAuthority(
    new StaticGrantSource(referenceGrants()),
    prepared,
    new AbortController().signal,
  );
  const lease = new TurnLease(prepared, false, async () => authority);
  await lease.ready;
  const registry = await resolver.resolve(lease, prepared, undefined);
  lease.release();
  return { registry, counters };
}

async function kernelListing(strategy: CatalogueStrategyName, handlers: ToolHandler[]) {
  const kernel = new MediationKernel({
    grantSource: new StaticGrantSource(referenceGrants()),
    auditSink: new MemoryAuditSink(),
    tools: handlers,
    providers: [notionProvider()],
    catalogueStrategy: strategy,
  });
  mutateHost(handlers);
  const context = worldContext(0);
  const scope = await kernel.openTurnAuthority(context);
  const listing = await kernel.listTools(context);
  scope.close();
  return { listing, counters: kernel.counters };
}

function mutateHost(handlers: ToolHandler[]): void {
  for (const handler of handlers)
    (handler.definition as { description: string }).description = 'mutated by the host after construction';
}

describe('one wiring for the kernel and its probes', () => {
  it.each(['rederive', 'shared', 'turn'] as const)(
    'under %s the probe resolves exactly the definitions the kernel lists, host mutations reaching neither',
    async (strategy) => {
      const pristine = new Map(
        referenceTools().map((handler) => [handler.definition.name, handler.definition.description]),
      );
      const probe = await probeRegistry(strategy, referenceTools());
      const kernel = await kernelListing(strategy, referenceTools());
      expect(kernel.listing.status).toBe('listed');
      expect(kernel.listing.tools.length).toBeGreaterThan(10);
      for (const listed of kernel.listing.tools) {
        expect(probe.registry.get(listed.name)?.definition).toEqual(listed);
        if (pristine.has(listed.name)) expect(listed.description).toBe(pristine.get(listed.name));
      }
      // One resolution each: the same registrations counted (static entries re-registered only under rederive).
      expect(probe.counters.entriesValidated).toBe(kernel.counters.entriesValidated);
      expect(probe.counters.derivations).toBe(kernel.counters.derivations);
    },
  );

  it('bench reaches the kernel only through its public entry and its internals entry', () => {
    const offenders: string[] = [];
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (name.endsWith('.ts')) {
          for (const [, target] of readFileSync(path, 'utf8').matchAll(/from '([^']*src\/kernel\/[^']*)'/g)) {
            if (!/src\/kernel\/(index|internals)\.js$/.test(target!))
              offenders.push(`${relative(REPO_ROOT, path)} → ${target}`);
          }
        }
      }
    };
    walk(join(REPO_ROOT, 'bench'));
    expect(offenders).toEqual([]);
  });

  it('the kernel, the probe and the micro cases all call buildCatalogueSources', () => {
    for (const file of ['src/kernel/kernel.ts', 'bench/probes/probe-units.ts', 'bench/micro/segment-cases.ts']) {
      expect(readFileSync(join(REPO_ROOT, file), 'utf8'), file).toMatch(/buildCatalogueSources\(/);
    }
    expect(readFileSync(join(REPO_ROOT, 'src/kernel/kernel.ts'), 'utf8')).not.toMatch(/entryAsHandler/);
  });
});
