#!/usr/bin/env node
// The published entry point: runs the built command line (dist/, made by
// `npm run build`, which `npm ci` runs through `prepare`), so no TypeScript
// runner is loaded at run time (docs/adr/0048-built-package.md).
let cli;
try {
  cli = await import('../dist/cli/main.js');
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('dist/cli/main.js')) throw error;
  process.stderr.write(
    'costlab: the built command line (dist/cli/main.js) is missing: run `npm run build` in the costlab checkout\n',
  );
  process.exit(2);
}
cli.toleratePipeClose();
process.exitCode = await cli.main(process.argv.slice(2));
