import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // bin/costlab.mjs runs the built dist/: rebuilt first when a source is newer.
    globalSetup: ['test/built-cli-setup.ts'],
    // Browser tests need a Chromium; they run with `npm run test:browser`.
    exclude: [...configDefaults.exclude, 'test/browser/**'],
    // A timeout here only catches a hang; no test judges time. At 30 s the
    // property-based reliability tests timed out on a loaded 2-core machine
    // (load 14: the 150-connection MCP frame exchange hit 30.0 s, the SDK one
    // took 28.6 s, 1,000 concurrent turns 26.5 s), so a hang is caught at
    // 2 minutes instead. Tests that run a whole command (a bench, a profile, a
    // sweep, a served target) set 5 minutes: at the same load the profile
    // command's end-to-end hook overran its old 60 s; callgrind's set 15.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
