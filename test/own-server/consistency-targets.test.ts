/**
 * The consistency rows against real servers: a misbehaving fixture whose
 * every bad row must be caught while its good rows pass, the same fixture
 * behaving, and the bare SDK fixture.
 */
import { describe, expect, it } from 'vitest';
import { runTargets } from '../../bench/own-server/run-targets.js';
import { parseTargetConfig } from '../../bench/own-server/target-config.js';
import { parseTargetSpec } from '../../bench/own-server/target-spec.js';
import { misbehaving, sdkFixture } from './support.js';

const env = { ALICE_TOKEN: 'alice-7f3a9c2e', BOB_TOKEN: 'bob-41d0b8aa' };
const config = parseTargetConfig({
  calls: [{ tool: 'common.search', arguments: { text: 'minutes' } }],
  identities: [
    { name: 'alice', env: { FIXTURE_TOKEN: { fromEnv: 'ALICE_TOKEN' } }, exclusive: ['alice.*'] },
    { name: 'bob', env: { FIXTURE_TOKEN: { fromEnv: 'BOB_TOKEN' } }, exclusive: ['bob.*'] },
  ],
  listRepeats: 4,
  timeoutMs: 20_000,
});

async function verdicts(target: string) {
  const report = await runTargets({
    kind: 'target-conformance',
    specs: [parseTargetSpec(target)],
    config,
    command: 'test',
    env,
  });
  const outcome = report.targets[0]!;
  return { outcome, report, byRow: Object.fromEntries((outcome.rows ?? []).map((row) => [row.id, row.verdict])) };
}

describe('catalogue consistency rows on real servers', () => {
  it('catches every misbehaviour of the misbehaving ' +
    'fixture, with evidence, and still passes its good rows', async () => {
    const { outcome, byRow, report } = await verdicts(
      misbehaving('--changes-listing', '--leaks', '--bad-schema', '--public-cache'),
    );
    expect(outcome.status).toBe('measured');
    expect(byRow).toEqual({
      'listing-stable': 'fail',
      'list-changed-false-honoured': 'fail',
      'unlisted-name-refused': 'pass',
      'identity-differences-allowed': 'fail',
      'cache-scope-private': 'fail',
      'input-schemas-valid': 'fail',
      'tool-count-within-client-limit': 'pass',
      'structured-content-valid': 'not_applicable',
    });
    const row = (id: string) => outcome.rows!.find((r) => r.id === id)!;
    expect(row('listing-stable').detail).toContain('sneaky.added');
    expect(row('identity-differences-allowed').detail).toContain('bob is shown alice.notes');
    expect(row('input-schemas-valid').detail).toContain('broken.schema');
    expect(row('cache-scope-private').detail).toContain('"public"');
    for (const id of [
      'listing-stable',
      'list-changed-false-honoured',
      'identity-differences-allowed',
      'cache-scope-private',
      'input-schemas-valid',
    ]) {
      expect(row(id).evidence.length, id).toBeGreaterThan(0);
      expect(
        row(id).evidence.every((frame) => frame.method === 'tools/list' && frame.direction === 'received'),
        id,
      ).toBe(true);
    }
    // The identities' credentials went to the children, never into the report.
    const text = JSON.stringify(report);
    expect(text).not.toContain(env.ALICE_TOKEN);
    expect(text).not.toContain(env.BOB_TOKEN);
  }, 300_000);

  it('passes every row of the same fixture when it behaves', async () => {
    const { byRow } = await verdicts(misbehaving());
    expect(Object.values(byRow)).toEqual(['pass', 'pass', 'pass', 'pass', 'pass', 'pass', 'pass', 'not_applicable']);
  }, 300_000);

  it('judges the bare SDK fixture: listChanged true makes ' +
    'that row n/a, no caching hints make the cache row n/a', async () => {
    const { byRow } = await verdicts(sdkFixture(6));
    expect(byRow).toMatchObject({
      'listing-stable': 'pass',
      'list-changed-false-honoured': 'not_applicable',
      'unlisted-name-refused': 'pass',
      'identity-differences-allowed': 'pass',
      'cache-scope-private': 'not_applicable',
      'input-schemas-valid': 'pass',
      'tool-count-within-client-limit': 'pass',
    });
  }, 300_000);
});
