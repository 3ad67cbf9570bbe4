/**
 * vitest's global setup: tests that start `bin/costlab.mjs` as a child run the
 * built `dist/` (docs/adr/0048-built-package.md), so it is rebuilt first
 * whenever a source under src/, bench/ or cli/ is newer than the last build.
 * An up-to-date build costs one walk of the source folders' modification times.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const BUILD_INFO = path.join(ROOT, 'dist', '.tsbuildinfo');

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(full));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

export default function setup(): void {
  const sources = Math.max(
    ...['src', 'bench', 'cli'].map((dir) => newestSource(path.join(ROOT, dir))),
    statSync(path.join(ROOT, 'package.json')).mtimeMs,
  );
  if (existsSync(BUILD_INFO) && statSync(BUILD_INFO).mtimeMs >= sources) return;
  process.stderr.write('vitest setup: dist/ is older than the sources: npm run build\n');
  const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  if (build.status !== 0)
    throw new Error(
      `npm run build failed (exit ${build.status}): the tests that ` +
        `start bin/costlab.mjs would run a stale or missing build`,
    );
  // tsc leaves its build info untouched when no output changed (a source touched, not edited): mark the build current.
  const now = new Date();
  utimesSync(BUILD_INFO, now, now);
}
