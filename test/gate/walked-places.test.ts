/**
 * The walked places are the power campaign's table of what the gate is known
 * to catch and what not: every place names a fixture or why it has none, and
 * every fixture is some place's regression, its patch on disk.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../../bench/gate/fixtures.js';
import { INSTRUCTION_LANE_IDS } from '../../bench/gate/lanes.js';
import { isCovered, WALKED_PLACES } from '../../bench/gate/walked-places.js';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const fixtureByName = new Map(FIXTURES.map((fixture) => [fixture.name, fixture]));

describe('walked places', () => {
  it('names each place once, with a file:function under src/ and a kind', () => {
    const ids = WALKED_PLACES.map((place) => place.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const place of WALKED_PLACES) {
      expect(place.where, place.id).toMatch(/^(kernel|mcp)\/[\w/-]+\.ts/);
      expect(existsSync(join(REPO_ROOT, 'src', place.where.split(/[:,\s]/)[0]!)), place.where).toBe(true);
    }
  });

  it('gives every place a fixture that the campaign runs on the place’s lane, or a reason for none', () => {
    for (const place of WALKED_PLACES) {
      if (isCovered(place)) {
        const fixture = fixtureByName.get(place.fixture);
        expect(fixture, `${place.id}: fixture ${place.fixture}`).toBeDefined();
        expect(fixture!.lanes, place.id).toContain(place.lane);
        expect(INSTRUCTION_LANE_IDS).toContain(place.lane);
      } else {
        expect(place.uncovered.trim().length, place.id).toBeGreaterThan(0);
      }
    }
  });

  it('counts every fixture as a place, and every fixture’s patch exists', () => {
    const regressed = new Set(WALKED_PLACES.filter(isCovered).map((place) => place.fixture));
    for (const fixture of FIXTURES) {
      expect(regressed.has(fixture.name), fixture.name).toBe(true);
      expect(existsSync(join(REPO_ROOT, 'bench', 'gate', 'fixtures', `${fixture.name}.patch`)), fixture.name).toBe(
        true,
      );
    }
  });
});
