// The one test configuration of every package: tests next to the code and flows in test/, type tests with
// vitest's typecheck. A package's vitest.config.ts states only what differs (a global setup, timeouts).
//
// `vitest run` runs the files and then the type tests. `pnpm test` runs them apart, by vitest's mode:
//   --mode=files    every file, no type tests;
//   --mode=timed    the files that must run alone (in a package without a `twoAtOnce` list: every file):
//                   step 2 of `pnpm test`, nothing beside them;
//   --mode=untimed  the files a package lists in `twoAtOnce` (none bounds a duration from above), two at
//                   a time: step 3, beside the checks of what ships;
//   --mode=types    the type tests only (vitest's typecheck: one `tsc` over the whole package, CPU-bound
//                   and untimed): step 3 too.
import {
  configDefaults,
  defineConfig,
  type TestProjectInlineConfiguration,
  type ViteUserConfig,
} from 'vitest/config';

type TestOptions = NonNullable<ViteUserConfig['test']>;

const INCLUDE = ['src/**/*.test.ts', 'test/**/*.test.ts'];
const TYPE_TESTS = ['src/**/*.test-d.ts', 'test/**/*.test-d.ts'];
const WITHOUT_TYPE_TESTS = ['files', 'timed', 'untimed'];

/** The test options of one package in one mode (see above); `test`, vitest's default, runs everything. */
const options = (mode: string, overrides: TestOptions): TestOptions => ({
  include: INCLUDE,
  typecheck: {
    enabled: !WITHOUT_TYPE_TESTS.includes(mode),
    only: mode === 'types',
    include: TYPE_TESTS,
  },
  passWithNoTests: false,
  ...overrides,
});

export const packageTests = (overrides: TestOptions = {}) =>
  defineConfig(({ mode }) => ({ test: options(mode, overrides) }));

/**
 * A package whose suite holds timing or fairness assertions, in two groups one after the other: first the
 * files matching `twoAtOnce` two at a time (vitest's default on 2 cores is one; they hold no such
 * assertion), then every other file one at a time with nothing beside it, then the type tests. A new file
 * runs alone until it is listed. `--mode=timed` runs only the second group, `--mode=untimed` only the
 * first (with a 30 s test timeout: beside the checks of what ships, on a busy machine, a timeout only
 * bounds a hang).
 */
export const packageTestsTwoAtOnce = (twoAtOnce: string[], overrides: TestOptions = {}) =>
  defineConfig(({ mode }) => {
    // The type tests alone need no groups.
    if (mode === 'types') return { test: options(mode, overrides) };
    // The projects inherit the rest; vitest would concatenate an `include` of the root with their own.
    const { include: _all, ...base } = options(mode, overrides);
    const listed: TestProjectInlineConfiguration = {
      extends: true,
      test: {
        name: 'two at once',
        include: twoAtOnce,
        maxWorkers: 2,
        sequence: { groupOrder: 0 },
        typecheck: { enabled: false },
        ...(mode === 'untimed' ? { testTimeout: Math.max(overrides.testTimeout ?? 0, 30_000) } : {}),
      },
    };
    const alone: TestProjectInlineConfiguration = {
      extends: true,
      test: {
        name: 'alone',
        include: INCLUDE,
        exclude: [...(base.exclude ?? configDefaults.exclude), ...twoAtOnce],
        maxWorkers: 1,
        sequence: { groupOrder: 1 },
        // Stated again: a project that extends the root re-reads it in vitest's default mode.
        typecheck: base.typecheck,
      },
    };
    const projects = mode === 'timed' ? [alone] : mode === 'untimed' ? [listed] : [listed, alone];
    return { test: { ...base, projects } };
  });
