import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Browser tests need a Chromium; they run with `npm run test:browser`.
    exclude: [...configDefaults.exclude, 'test/browser/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
