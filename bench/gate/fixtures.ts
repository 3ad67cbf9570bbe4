/**
 * Fixture trees for measuring the gate's power: HEAD plus one patch from
 * `bench/gate/fixtures/`, in a git worktree that shares the repository's
 * installed dependencies (a fixture never touches the lockfile). A ladder's
 * patch holds `@K@`, the rung: the same regression done k times.
 *
 * A patch that no longer applies (the code it targets moved) fails loudly
 * with FixtureDoesNotApply: a power campaign whose fixtures silently measured
 * HEAD would report a gate that never flags as one that was never tested.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { GateError } from './gate-error.js';
import { git as runGit, GitFailed } from '../repository/git.js';
import type { InstructionLaneId } from './lanes.js';

const FIXTURES_DIR = join('bench', 'gate', 'fixtures');

export interface Fixture {
  readonly name: string;
  /** What the regression is, in a sentence. */
  readonly description: string;
  /** Rungs for a ladder (the patch holds @K@); absent for a single patch. */
  readonly rungs?: readonly number[];
  /** The instruction lanes that hold the work it adds (what the campaign counts). */
  readonly lanes: readonly InstructionLaneId[];
}

export const FIXTURES: readonly Fixture[] = Object.freeze([
  {
    name: 'ladder-derive-repeat',
    description: 'the per-turn derivation done k times',
    rungs: [1, 2, 3, 4],
    lanes: ['catalogue'],
  },
  {
    name: 'ladder-registry-copies',
    description: 'k extra registry copies on every resolve',
    rungs: [1, 2, 3, 4],
    lanes: ['catalogue'],
  },
  {
    name: 'ladder-provider-tools',
    description: 'k extra provider tools registered again every turn',
    rungs: [1, 2, 3, 4],
    lanes: ['catalogue'],
  },
  {
    name: 'revert-turn-memo',
    description: 'the per-turn memo reverted: every operation derives',
    lanes: ['catalogue', 'call'],
  },
  {
    name: 'mcp-listing-per-call',
    description: 'the MCP bridge asks the kernel for a listing on every tools/call',
    lanes: ['mcp'],
  },
  {
    name: 'dearer-call',
    description: 'a little more work in every authorized call (the requirement serialized once more)',
    lanes: ['call'],
  },
]);

export class FixtureDoesNotApply extends GateError {
  readonly code = 'FixtureDoesNotApply';
}

/** The patch text for a rung: `@K@` replaced by k. */
export async function fixturePatch(root: string, fixture: Fixture, k?: number): Promise<string> {
  const text = await readFile(join(root, FIXTURES_DIR, `${fixture.name}.patch`), 'utf8');
  if (fixture.rungs === undefined) return text;
  if (k === undefined || !text.includes('@K@'))
    throw new FixtureDoesNotApply(`${fixture.name} is a ladder: it needs a rung, and its patch a @K@`);
  return text.replaceAll('@K@', String(k));
}

/** git through the bench's one git module; FixtureDoesNotApply on failure, `onFailure` naming why when given. */
async function git(cwd: string, args: readonly string[], onFailure?: (stderrTail: string) => string): Promise<string> {
  try {
    return await runGit(cwd, args);
  } catch (error) {
    if (!(error instanceof GitFailed)) throw error;
    throw new FixtureDoesNotApply(
      onFailure?.(error.stderrTail) ?? `'git ${args.join(' ')}' ${error.how}\n${error.stderrTail}`,
    );
  }
}

/** git whose failure is of no consequence (cleaning up what may already be gone). */
async function gitQuietly(cwd: string, args: readonly string[]): Promise<void> {
  await runGit(cwd, args).catch((error: unknown) => {
    if (!(error instanceof GitFailed)) throw error;
  });
}

/** A worktree at `base` with the fixture (rung k) applied; returns its directory. Throws FixtureDoesNotApply. */
export async function fixtureTree(root: string, base: string, fixture: Fixture, k?: number): Promise<string> {
  const dir = await sharedDependencyTree(root, base, `fixture-${fixture.name}${k === undefined ? '' : `-k${k}`}`);
  const patchFile = join(dir, '.fixture.patch');
  await writeFile(patchFile, await fixturePatch(root, fixture, k));
  try {
    await git(
      dir,
      ['apply', '--check', patchFile],
      (stderrTail) =>
        `fixture ${fixture.name} no longer applies to ${base.slice(0, 12)}: re-fit ${join(FIXTURES_DIR, `${fixture.name}.patch`)} to the code it targets\n${stderrTail}`,
    );
  } catch (error) {
    await removeFixtureTree(root, dir);
    throw error;
  }
  await git(dir, ['apply', patchFile]);
  await rm(patchFile);
  return dir;
}

/**
 * A fresh worktree `.worktrees/<name>` at `base` that uses the repository's
 * installed dependencies (a symlink to its node_modules); returns its directory.
 * For trees whose lockfile is the repository's own: fixtures, and the history
 * replay's tree with another commit's src/ swapped in.
 */
export async function sharedDependencyTree(root: string, base: string, name: string): Promise<string> {
  const dir = join(root, '.worktrees', name);
  await removeFixtureTree(root, dir);
  await mkdir(join(root, '.worktrees'), { recursive: true });
  await git(root, ['worktree', 'add', '--detach', dir, base]);
  await symlink(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return dir;
}

export async function removeFixtureTree(root: string, dir: string): Promise<void> {
  if (existsSync(dir)) await gitQuietly(root, ['worktree', 'remove', '--force', dir]);
  await rm(dir, { recursive: true, force: true });
  await gitQuietly(root, ['worktree', 'prune']);
}
