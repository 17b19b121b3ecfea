// The one test configuration of every package: tests next to the code and flows in test/, type tests with
// vitest's typecheck. A package's vitest.config.ts states only what differs (a global setup, timeouts).
//
// `vitest run` runs the files and then the type tests. `pnpm test` runs them apart, by vitest's mode:
// `--mode=files` runs only the files (the timed suites then hold the machine without a tsc after them) and
// `--mode=types` only the type tests (vitest's typecheck: one `tsc` over the whole package, CPU-bound and
// untimed, so it can run beside other untimed work).
import { configDefaults, defineConfig, type ViteUserConfig } from 'vitest/config';

type TestOptions = NonNullable<ViteUserConfig['test']>;

const INCLUDE = ['src/**/*.test.ts', 'test/**/*.test.ts'];
const TYPE_TESTS = ['src/**/*.test-d.ts', 'test/**/*.test-d.ts'];

/** The test options of one package run whole (`test`), files only (`files`) or type tests only (`types`). */
const options = (mode: string, overrides: TestOptions): TestOptions => ({
  include: INCLUDE,
  typecheck: { enabled: mode !== 'files', only: mode === 'types', include: TYPE_TESTS },
  passWithNoTests: false,
  ...overrides,
});

export const packageTests = (overrides: TestOptions = {}) =>
  defineConfig(({ mode }) => ({ test: options(mode, overrides) }));

/**
 * A package whose suite holds timing or fairness assertions, in two groups one after the other: first the
 * files matching `twoAtOnce` two at a time (vitest's default on 2 cores is one; they hold no such
 * assertion), then every other file one at a time with nothing beside it, then the type tests. A new file
 * runs alone until it is listed.
 */
export const packageTestsTwoAtOnce = (twoAtOnce: string[], overrides: TestOptions = {}) =>
  defineConfig(({ mode }) => {
    // The type tests alone need no groups.
    if (mode === 'types') return { test: options(mode, overrides) };
    // The projects inherit the rest; vitest would concatenate an `include` of the root with their own.
    const { include: _all, ...base } = options(mode, overrides);
    return {
      test: {
        ...base,
        projects: [
          {
            extends: true,
            test: {
              name: 'two at once',
              include: twoAtOnce,
              maxWorkers: 2,
              sequence: { groupOrder: 0 },
              typecheck: { enabled: false },
            },
          },
          {
            extends: true,
            test: {
              name: 'alone',
              include: INCLUDE,
              exclude: [...(base.exclude ?? configDefaults.exclude), ...twoAtOnce],
              maxWorkers: 1,
              sequence: { groupOrder: 1 },
            },
          },
        ],
      },
    };
  });
