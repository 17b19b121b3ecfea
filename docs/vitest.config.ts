import { defineConfig } from 'vitest/config';
import { LEAKS, sharesModules } from '../vitest.base.ts';

export default defineConfig(({ mode }) => ({
  test: {
    include: ['test/**/*.test.ts'],
    // Builds docs/dist when it is missing or older than its inputs (spec, guides, examples, tools/docs).
    globalSetup: ['./test/global-setup.ts'],
    setupFiles: LEAKS,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    passWithNoTests: false,
    // Two files at once (vitest's default on 2 cores is one): the two browser files wait on Chromium's page
    // loads more than they use a core, and no test here holds a timing assertion (the site test's 10 s is
    // a deadline to poll until, not a measure).
    maxWorkers: 2,
    // In `pnpm test` (--mode=files) a worker evaluates the modules its files share once, not per file.
    isolate: !sharesModules(mode),
  },
}));
