/**
 * The power campaign's fixtures must apply to the code they target: a patch
 * that silently stopped applying would measure HEAD and call it a regression
 * the gate missed, or worse, a pass. This runs in npm test, so a change that
 * moves a fixture's target fails here, by name, until the fixture is re-fitted.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FIXTURES, FixtureDoesNotApply, fixturePatch } from '../../bench/gate/fixtures.js';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('gate fixtures', () => {
  it.each(FIXTURES.map((fixture) => [fixture.name, fixture] as const))(
    '%s applies to the working tree',
    async (_name, fixture) => {
      for (const k of fixture.rungs ?? [undefined]) {
        const patch = await fixturePatch(REPO_ROOT, fixture, k);
        const check = spawnSync('git', ['apply', '--check', '-'], { cwd: REPO_ROOT, input: patch, encoding: 'utf8' });
        expect(check.status, `${fixture.name} k=${k}: ${check.stderr}`).toBe(0);
      }
    },
  );

  it('a ladder asked for without its rung is refused by name', async () => {
    const ladder = FIXTURES.find((fixture) => fixture.rungs !== undefined)!;
    await expect(fixturePatch(REPO_ROOT, ladder)).rejects.toBeInstanceOf(FixtureDoesNotApply);
  });

  it('a patch that does not apply is what git apply --check refuses', () => {
    const broken =
      'diff --git a/src/kernel/kernel.ts b/src/kernel/kernel.ts\n' +
      '--- a/src/kernel/kernel.ts\n+++ b/src/kernel/kernel.ts\n' +
      '@@ -1,1 +1,1 @@\n-no such line in the kernel\n+anything\n';
    expect(spawnSync('git', ['apply', '--check', '-'], { cwd: REPO_ROOT, input: broken }).status).not.toBe(0);
  });
});
