/**
 * Where costlab's own files are, and how to start one of its modules as a
 * child process, the same whether it runs from the TypeScript sources (tests,
 * a checkout under tsx) or from the built JavaScript of an installed package
 * (`dist/`, docs/adr/0048-built-package.md).
 *
 * The built tree sits one folder deeper than the sources (`dist/bench/…` for
 * `bench/…`), so a fixed `../../` from a module cannot name the package root in
 * both; the root is the nearest folder above this module holding a
 * `package.json`. A child is started in the form its parent runs in: `.ts`
 * through the `tsx` loader (a development dependency, there whenever sources
 * run), `.js` directly, so a measured pair of children (costlab beside a bare
 * SDK server) never has one side paying a loader the other does not.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

function findPackageRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

/**
 * The folder holding costlab's package.json: the repository root in a checkout, `node_modules/costlab` in an installed
 * copy.
 */
export const PACKAGE_ROOT: string = findPackageRoot(path.dirname(fileURLToPath(import.meta.url)));

/**
 * Whether this module runs from its TypeScript source (a checkout under tsx or vitest) rather than the built `dist/`.
 */
const RUNS_FROM_SOURCE: boolean = import.meta.url.endsWith('.ts');

/** A file shipped with the package, by its path from the package root (`reference/anchor-figures.json`). */
export function packageFile(relative: string): string {
  return path.join(PACKAGE_ROOT, relative);
}

/** The package's version, from its package.json. */
export function packageVersion(): string {
  return (JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as { version: string }).version;
}

/**
 * The node arguments that run one of costlab's modules as a script: `moduleUrl`
 * is resolved like an import (`new URL('./child.js', import.meta.url)`) and
 * becomes the `.ts` source through tsx when the caller runs from source.
 */
export function moduleScriptArgs(moduleUrl: URL): string[] {
  const file = fileURLToPath(moduleUrl);
  return RUNS_FROM_SOURCE ? ['--import', 'tsx', file.replace(/\.js$/, '.ts')] : [file];
}

/**
 * The node arguments that start the costlab command line (`cli/main`) in the caller's form; the command's own arguments
 * follow.
 */
export function costlabCliArgs(): string[] {
  return moduleScriptArgs(new URL('../../cli/main.js', import.meta.url));
}

/**
 * Whether the package root is a git checkout of costlab (a clone or a worktree:
 * `.git` is a folder or a file). An installed copy is not, even inside a
 * user's repository: git asked from `node_modules/costlab` would answer with
 * the user's commit, so nothing asks it there.
 */
export const PACKAGE_IS_CHECKOUT: boolean = existsSync(path.join(PACKAGE_ROOT, '.git'));

/**
 * Where a run writes unless told otherwise: `results/runs/` (git-ignored) of the
 * checkout, or of the working directory when costlab is an installed package,
 * whose own folder belongs to the package manager.
 */
export function localResultsDir(): string {
  return path.join(PACKAGE_IS_CHECKOUT ? PACKAGE_ROOT : process.cwd(), 'results', 'runs');
}
