/**
 * Every package an installed costlab imports at run time is one of its
 * `dependencies`: the modules reachable from cli/main.ts (static and dynamic
 * imports, and the modules costlab starts as child processes) are read with
 * the compiler's pre-processor, leaving out `profile`, which an installed
 * package refuses (it needs a checkout and its development tools). gate and
 * compare are refused only on their reference path, so they are read: the one
 * checkout tool they use, esbuild, must be loaded lazily where it bundles.
 * `npx costlab bench` once crashed in an installed copy on tinybench, then a
 * development dependency; this is the check that would have said so.
 */
import { builtinModules } from 'node:module';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { CHECKOUT_ONLY_COMMANDS } from '../../cli/main.js';
import { resolveImport } from '../architecture/import-graph.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const BUILTINS = new Set(builtinModules);
/**
 * Development tools the checkout-only paths load with `await import()` where they use them, never at a module's top.
 */
const CHECKOUT_TOOLS = new Set(['esbuild']);
/** A module started as a child: `moduleScriptArgs(new URL('./child.js', import.meta.url))` and its kin. */
const CHILD_MODULE = /new URL\('(\.{1,2}\/[^']+\.js)', import\.meta\.url\)/g;

function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** The packages the files reachable from `roots` import, each with one file that imports it. */
function reachablePackages(
  roots: readonly string[],
  excluded: ReadonlySet<string>,
): { files: Set<string>; packages: Map<string, string>; topLevelTools: string[] } {
  const files = new Set<string>();
  const packages = new Map<string, string>();
  const topLevelTools: string[] = [];
  const queue = [...roots];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (files.has(file) || excluded.has(file)) continue;
    files.add(file);
    const text = readFileSync(path.join(ROOT, file), 'utf8');
    // `import type` leaves nothing at run time (verbatimModuleSyntax erases exactly those).
    const runtime = text.replace(/^import type [^;]+;$/gm, '').replace(/^export type [^;]+;$/gm, '');
    const specifiers = ts.preProcessFile(runtime, true, true).importedFiles.map((imported) => imported.fileName);
    for (const [, child] of runtime.matchAll(CHILD_MODULE)) specifiers.push(child!);
    for (const specifier of specifiers) {
      if (specifier.startsWith('.')) {
        const resolved = resolveImport(ROOT, file, specifier);
        if (resolved !== undefined) queue.push(resolved);
      } else if (!specifier.startsWith('node:') && !BUILTINS.has(specifier)) {
        const name = packageName(specifier);
        if (CHECKOUT_TOOLS.has(name)) {
          if (runtime.includes(`from '${specifier}'`)) topLevelTools.push(`${name} (imported at the top of ${file})`);
        } else if (!packages.has(name)) packages.set(name, file);
      }
    }
  }
  return { files, packages, topLevelTools };
}

describe('the installed commands’ imports', () => {
  const excluded = new Set(
    Object.entries(CHECKOUT_ONLY_COMMANDS)
      .filter(([, when]) => when === 'always')
      .map(([name]) => `cli/commands/${name}.ts`),
  );
  const { files, packages, topLevelTools } = reachablePackages(['cli/main.ts'], excluded);

  it('reach the harness, the report and the child processes costlab starts', () => {
    expect(CHECKOUT_ONLY_COMMANDS).toEqual({
      gate: 'without a target',
      compare: 'without a target',
      profile: 'always',
    });
    for (const file of [
      'cli/commands/bench.ts',
      'cli/commands/gate.ts',
      'bench/gate/probe-bundle.ts',
      'bench/micro/tinybench-runner.ts',
      'bench/report/chart-svg.ts',
      'bench/transports/bare-sdk-stdio.ts',
      'bench/transports/record-writes-child.ts',
    ]) {
      expect(files.has(file), file).toBe(true);
    }
    expect(files.has('cli/commands/profile.ts')).toBe(false);
  });

  it('are all dependencies, none a development dependency', () => {
    const missing = [...packages]
      .filter(([name]) => manifest.dependencies[name] === undefined)
      .map(([name, file]) => `${name} (imported by ${file})`);
    expect(missing).toEqual([]);
    expect(Object.keys(manifest.dependencies).filter((name) => name in manifest.devDependencies)).toEqual([]);
    expect(topLevelTools).toEqual([]);
  });
});
