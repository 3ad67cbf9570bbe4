import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Tests that drive a real headless Chromium (via playwright-core) against built
 * pages. Kept out of the default run because they need a browser installed:
 * `CHROMIUM_PATH`, or the distribution's `/usr/bin/chromium`.
 */
export default defineConfig({
  test: {
    include: ['test/browser/**/*.browser.test.ts'],
    exclude: [...configDefaults.exclude],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
