import { BASELINE_SCHEMA_VERSION } from '../../bench/gate/baseline.js';
import type { Baseline } from '../../bench/gate/baseline.js';
import { currentProvenance, laneShapes } from '../../bench/gate/lanes.js';

/** A baseline counted in this setup (valgrind as named), every lane present: the tests change what they need. */
export function baselineFixture(overrides: Partial<Baseline> = {}, valgrind = 'valgrind-3.19.0'): Baseline {
  return {
    schemaVersion: BASELINE_SCHEMA_VERSION,
    commit: 'a'.repeat(40),
    dirty: false,
    createdAt: '2026-12-01T00:00:00.000Z',
    command: 'costlab gate --update-baseline',
    provenance: currentProvenance(valgrind),
    strategy: 'turn',
    evidence: {
      builds: [{ label: 'this checkout', processes: 1, bundleSha256: '0'.repeat(64) }],
      harmlessCampaign: null,
    },
    lanes: Object.fromEntries(
      Object.entries(laneShapes()).map(([id, shape]) => [
        id,
        { shape, perOperation: [1000, 1001], processes: 1, runs: [1000.5], harmlessMove: 0 },
      ]),
    ),
    ...overrides,
  };
}
