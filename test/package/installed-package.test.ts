/**
 * costlab as a user meets it: `npm pack`, the tarball installed into a fresh
 * project in a temporary directory (no repository above it, no ../shared),
 * and the commands run there through `npx`, with no TypeScript runner
 * installed. A TypeScript file importing `costlab/kernel` is type-checked
 * against the shipped declarations, and shown to fail on a planted type error.
 *
 * Opt-in (COSTLAB_PACK_TEST=1, `npm run test:pack`): the install and a quick
 * bench take minutes, so `.ci/run` runs it once, as its own step.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatSeconds } from '../../bench/format/index.js';

const run = promisify(execFile);
const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURE = fileURLToPath(new URL('../fixtures/targets/sdk-tools-server.mjs', import.meta.url));
const enabled = process.env.COSTLAB_PACK_TEST === '1';
const repoPackage = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
  version: string;
  devDependencies: Record<string, string>;
};

interface Outcome {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** A command in `cwd`; its exit code, stdout and stderr, never a throw. */
async function sh(cwd: string, file: string, args: readonly string[]): Promise<Outcome> {
  const started = Date.now();
  try {
    const { stdout, stderr } = await run(file, [...args], {
      cwd,
      maxBuffer: 32 * 1024 * 1024,
      env: { ...process.env, npm_config_loglevel: 'error' },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number | string; stdout?: string; stderr?: string };
    return {
      code: typeof failed.code === 'number' ? failed.code : -1,
      stdout: failed.stdout ?? '',
      stderr: failed.stderr ?? String(error),
    };
  } finally {
    // Progress for the CI log: each step of a minutes-long test, with its time.
    process.stderr.write(
      `pack test: ${path.basename(file)} ${args.join(' ').slice(0, 120)} ` +
        `(${formatSeconds(Date.now() - started)})\n`,
    );
  }
}

describe.skipIf(!enabled)('the packed costlab, installed into a fresh project', () => {
  let work: string;
  let project: string;
  let packed: string[];
  const npx = (args: readonly string[]): Promise<Outcome> => sh(project, 'npx', ['--no-install', 'costlab', ...args]);

  beforeAll(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'costlab-pack-'));
    // `npm pack` runs `prepare`, so the tarball holds a build of the sources as they are.
    const pack = await sh(REPO_ROOT, 'npm', ['pack', '--json', '--pack-destination', work]);
    expect(pack.code, pack.stderr).toBe(0);
    const [manifest] = JSON.parse(pack.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
    packed = manifest!.files.map((file) => file.path);
    project = path.join(work, 'user-project');
    await run('mkdir', [project]);
    writeFileSync(
      path.join(project, 'package.json'),
      `${JSON.stringify({ name: 'user-project', private: true, type: 'module' }, null, 2)}\n`,
    );
    // The user's own server (a bare SDK one), and TypeScript with Node's types to check against the shipped
    // declarations: the kernel's name Node's globals (AbortSignal), as a Node project's types provide them.
    copyFileSync(FIXTURE, path.join(project, 'server.mjs'));
    const install = await sh(project, 'npm', [
      'install',
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
      path.join(work, manifest!.filename),
      `typescript@${repoPackage.devDependencies.typescript}`,
      `@types/node@${repoPackage.devDependencies['@types/node']}`,
    ]);
    expect(install.code, install.stderr).toBe(0);
  }, 600_000);

  afterAll(() => {
    if (work !== undefined) rmSync(work, { recursive: true, force: true });
  });

  it('packs only what a user needs: the built code, its declarations, bin and the published figures', () => {
    expect(packed).toEqual(
      expect.arrayContaining([
        'package.json',
        'README.md',
        'CHANGELOG.md',
        'bin/costlab.mjs',
        'dist/cli/main.js',
        'dist/src/kernel/index.d.ts',
        'reference/anchor-figures.json',
      ]),
    );
    const outside = packed.filter(
      (file) =>
        !/^(?:bin\/|dist\/|reference\/anchor-figures\.json$|package\.json$|README\.md$|CHANGELOG\.md$)/.test(file),
    );
    expect(outside).toEqual([]);
    expect(packed.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))).toEqual([]);
    // A build left over from a deleted source would ship dead code: every built module has its source.
    const orphans = packed
      .filter((file) => file.startsWith('dist/') && file.endsWith('.js'))
      .filter((file) => !existsSync(path.join(REPO_ROOT, file.slice('dist/'.length).replace(/\.js$/, '.ts'))));
    expect(orphans).toEqual([]);
  });

  it('installs no TypeScript runner: costlab needs none at run time', () => {
    expect(existsSync(path.join(project, 'node_modules', 'tsx'))).toBe(false);
    expect(readdirSync(path.join(project, 'node_modules', 'costlab')).sort()).toEqual([
      'CHANGELOG.md',
      'README.md',
      'bin',
      'dist',
      'package.json',
      'reference',
    ]);
  });

  it('npx costlab --version prints the package version', async () => {
    const version = await npx(['--version']);
    expect(version.code, version.stderr).toBe(0);
    expect(version.stdout.trim()).toBe(repoPackage.version);
  });

  it('node -e "import(\'costlab/kernel\')" resolves the built kernel', async () => {
    const probe = await sh(project, process.execPath, [
      '-e',
      "import('costlab/kernel').then((k) => console.log(typeof k.MediationKernel, k.CATALOGUE_STRATEGIES.join(',')))",
    ]);
    expect(probe.code, probe.stderr).toBe(0);
    expect(probe.stdout.trim()).toBe('function rederive,shared,turn');
  });

  it('type-checks a file importing costlab/kernel against the ' +
    'shipped declarations, and fails on a planted type error', async () => {
    const tsconfig = {
      compilerOptions: {
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        target: 'ES2022',
        lib: ['ES2023'],
        strict: true,
        noEmit: true,
        types: ['node'],
      },
    };
    writeFileSync(path.join(project, 'tsconfig.json'), `${JSON.stringify(tsconfig, null, 2)}\n`);
    writeFileSync(
      path.join(project, 'use-kernel.ts'),
      [
        "import { CATALOGUE_STRATEGIES, MediationKernel, isCatalogueStrategyName } from 'costlab/kernel';",
        "import type { CatalogueStrategyName } from 'costlab/kernel';",
        "const strategy: CatalogueStrategyName = CATALOGUE_STRATEGIES[0] ?? 'turn';",
        'export const usable: boolean = isCatalogueStrategyName(strategy) && typeof MediationKernel === "function";',
        '',
      ].join('\n'),
    );
    const good = await sh(project, 'npx', ['--no-install', 'tsc', '-p', 'tsconfig.json']);
    expect(good.code, good.stdout + good.stderr).toBe(0);

    writeFileSync(
      path.join(project, 'use-kernel.ts'),
      "import type { CatalogueStrategyName } from 'costlab/kernel';\nexport " +
        "const strategy: CatalogueStrategyName = 'no-such-strategy';\n",
    );
    // The declarations were checked whole above; the planted error needs only the user's file checked against them.
    const bad = await sh(project, 'npx', ['--no-install', 'tsc', '-p', 'tsconfig.json', '--skipLibCheck']);
    expect(bad.code).not.toBe(0);
    expect(bad.stdout).toMatch(/use-kernel\.ts.*error TS2322/);
    rmSync(path.join(project, 'use-kernel.ts'));
  }, 300_000);

  it('npx costlab bench --quick measures, prints the published ' +
    'comparison and writes under the project, not the package', async () => {
    const bench = await npx(['bench', '--quick', '--no-fail']);
    expect(bench.code, bench.stderr).toBe(0);
    expect(bench.stdout).toContain('the published figures: reference/anchor-figures.json');
    expect(bench.stdout).toContain('both worlds beside the published figures (');
    const written = readdirSync(path.join(project, 'results', 'runs'));
    expect(written).toEqual(expect.arrayContaining(['latest.json', 'systems-cost.md']));
    const latest = JSON.parse(readFileSync(path.join(project, 'results', 'runs', 'latest.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(latest).toMatchObject({
      schemaVersion: 1,
      commit: 'uncommitted',
      gitCheckout: false,
      costlabVersion: repoPackage.version,
    });
    expect(readFileSync(path.join(project, 'results', 'runs', 'systems-cost.md'), 'utf8')).toContain(
      `an installed costlab ${repoPackage.version} (not a git checkout)`,
    );
    expect(existsSync(path.join(project, 'node_modules', 'costlab', 'results'))).toBe(false);
  }, 600_000);

  it("npx costlab bench --target and conformance --target judge the user's own server", async () => {
    const target = `stdio:node server.mjs 20`;
    const bench = await npx([
      'bench',
      '--target',
      target,
      '--samples',
      '5',
      '--cold-runs',
      '2',
      '--out',
      'target-bench',
      '--json',
    ]);
    expect(bench.code, bench.stderr).toBe(0);
    expect(JSON.parse(bench.stdout)).toMatchObject({
      schemaVersion: 1,
      kind: 'target-bench',
      targets: [{ target, status: 'measured' }],
    });
    const conformance = await npx(['conformance', '--target', target, '--out', 'target-conformance', '--json']);
    expect(conformance.code, conformance.stderr).toBe(0);
    expect(JSON.parse(conformance.stdout)).toMatchObject({
      schemaVersion: 1,
      kind: 'target-conformance',
      targets: [{ target, status: 'measured' }],
    });
  }, 300_000);

  it("npx costlab compare --target keeps its --target form: compare loads without the checkout's tools", async () => {
    const compare = await npx([
      'compare',
      '--target',
      'stdio:node server.mjs 3',
      '--target',
      'stdio:node server.mjs 5',
      '--rounds',
      '2',
      '--samples',
      '3',
      '--out',
      'target-compare',
      '--json',
    ]);
    expect(compare.code, compare.stderr).toBe(0);
    expect(JSON.parse(compare.stdout)).toMatchObject({
      schemaVersion: 1,
      kind: 'target-compare',
      exact: { base: { toolCount: 3 }, head: { toolCount: 5 } },
    });
  }, 300_000);

  it('refuses, by name, the commands that measure a costlab checkout (gate without a target, profile)', async () => {
    const gate = await npx(['gate']);
    expect(gate.code).toBe(2);
    expect(gate.stderr).toContain(
      'costlab gate: without --target or --world, this command measures a costlab checkout',
    );
    expect(gate.stderr).toContain('not a git checkout');
    const profile = await npx(['profile', '--target', 'stdio:node server.mjs']);
    expect(profile.code).toBe(2);
    expect(profile.stderr).toContain('costlab profile: this command measures a costlab checkout');
  });
});
