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
  {
    name: 'bypass-asked-entry-identity',
    description: "an unchanged entry no longer answered by its definition's identity: the store admits it again",
    lanes: ['opening-2000-unsignalled'],
  },
  {
    name: 'bypass-shape-parts-identity',
    description: "the shape cache's remembered parts no longer answer by identity: the input compared item by item",
    lanes: ['catalogue-1000'],
  },
  {
    name: 'rebuild-shape-every-derivation',
    description: 'the shape cache bypassed: every derivation builds its catalogue shape afresh',
    lanes: ['catalogue'],
  },
  {
    name: 'rebind-entry-every-call',
    description:
      "the held registry's bound entry dropped, k = 20: a provided tool bound again 20 times on every lookup " +
      '(once: +0.11% of the call lane)',
    lanes: ['call'],
  },
  {
    name: 'bypass-listing-verdicts',
    description: "the shape's remembered listings dropped: every listing walks the shape",
    lanes: ['listing'],
  },
  {
    name: 'rehash-catalogue-every-listing',
    description: 'the catalogue hashed afresh on every listing',
    lanes: ['listing'],
  },
  {
    name: 'discovery-every-ceiling',
    description: "discovery's verdicts per ceiling no longer remembered across listings or within one",
    lanes: ['listing'],
  },
  {
    name: 'bypass-prepared-context',
    description: 'the prepared context no longer remembered: every operation validates its context again',
    lanes: ['call'],
  },
  {
    name: 'bypass-kept-grant',
    description: 'sealed grants no longer kept: every turn validates and compiles its grants again',
    lanes: ['boundary'],
  },
  {
    name: 'bypass-grant-set',
    description: 'the grant set no longer remembered: every turn sorts, joins and hashes its grants again',
    lanes: ['boundary'],
  },
  {
    name: 'call-contract-twice',
    description: "the call's contract checked twice per call",
    lanes: ['call'],
  },
  {
    name: 'parse-arguments-twice',
    description: "the tool's arguments parsed twice per call",
    lanes: ['call'],
  },
  {
    name: 'result-contract-twice',
    description: "the handler's result checked against its contract twice per call",
    lanes: ['call'],
  },
  {
    name: 'mcp-request-parse-twice',
    description: 'the tools/call request parsed twice per call',
    lanes: ['mcp'],
  },
  {
    name: 'mcp-arguments-check-thrice',
    description:
      "the arguments' size and depth walked 3 times per call (twice: +0.90% of the mcp lane; 3 times: +1.93%)",
    lanes: ['mcp'],
  },
  {
    name: 'mcp-result-serialize-5x',
    description: "the result's output serialised 5 times per call (twice: +0.34% of the mcp lane; 5 times: +1.48%)",
    lanes: ['mcp'],
  },
  {
    name: 'principal-key-twice',
    description: "the principal's key built twice per derivation",
    lanes: ['catalogue'],
  },
  {
    name: 'lookup-by-scan',
    description: "a called tool found by scanning the catalogue rather than by its name's index",
    lanes: ['call'],
  },
  {
    name: 'requirement-twice',
    description: "the call's requirement resolved and parsed twice per call",
    lanes: ['call'],
  },
  {
    name: 'eligibility-twice',
    description: "the grants' eligibility judged twice per listing",
    lanes: ['listing'],
  },
  {
    name: 'bridge-names-by-scan',
    description: 'the MCP bridge checks a called name by scanning the listed catalogue',
    lanes: ['mcp'],
  },
  {
    name: 'static-list-sorted-every-derivation',
    description: "the static registry's sorted entries no longer held: every derivation sorts them again",
    lanes: ['catalogue'],
  },
  {
    name: 'handler-check-twice',
    description: "each provided handler's functions checked twice per turn",
    lanes: ['opening-2000-unsignalled'],
  },
  {
    name: 'listing-metadata-copy-twice',
    description: "the listed event's metadata copied once more (structuredClone) before it is recorded",
    lanes: ['listing'],
  },
  {
    name: 'static-grants-copied-every-load',
    description: 'each held grant copied and frozen again on every load (the held copy still answered)',
    lanes: ['boundary'],
  },
  {
    name: 'bypass-rejection-records',
    description: "a grant's rejection records no longer kept: every rejection makes a fresh frozen record",
    lanes: ['call'],
  },
  {
    name: 'seal-walks-every-field',
    description: 'every per-call audit record sealed by a deep-freeze over all its fields, not only its two objects',
    lanes: ['call'],
  },
  {
    name: 'timing-lookup-every-frame',
    description:
      'every frame the MCP server sends looked up among the timed requests though none is timed, k = 12 ' +
      '(once: +0.11% of the mcp lane)',
    lanes: ['mcp'],
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
        `fixture ${fixture.name} no longer applies to ${base.slice(0, 12)}: ` +
        `re-fit ${join(FIXTURES_DIR, `${fixture.name}.patch`)} to the code it targets\n${stderrTail}`,
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
