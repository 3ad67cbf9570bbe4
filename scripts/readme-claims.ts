/**
 * Regenerates (or with --check, verifies) README.md's paragraph on which
 * published ratios reproduce, from results/latest.json and the published
 * figures. `costlab bench --commit-results` runs the same update.
 *
 *   npx tsx scripts/readme-claims.ts [--check]
 */
import path from 'node:path';
import { expectedReadme, updateReadmeClaims } from '../bench/markdown/readme-claims.js';

const repoRoot = path.resolve(import.meta.dirname, '..');
if (process.argv.includes('--check')) {
  const { current, expected } = await expectedReadme({ repoRoot });
  if (current !== expected) {
    process.stderr.write(
      'readme-claims: README.md does not say what results/latest.json shows; run npx tsx scripts/readme-claims.ts\n',
    );
    process.exitCode = 1;
  }
} else {
  process.stdout.write(
    (await updateReadmeClaims({ repoRoot }))
      ? 'readme-claims: README.md updated\n'
      : 'readme-claims: README.md already current\n',
  );
}
