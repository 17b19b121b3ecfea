// The one test configuration of every package: tests next to the code and flows in test/, type tests with
// vitest's typecheck. A package's vitest.config.ts states only what differs (a global setup, timeouts).
import { configDefaults, defineConfig, type ViteUserConfig } from 'vitest/config';

type TestOptions = NonNullable<ViteUserConfig['test']>;

const INCLUDE = ['src/**/*.test.ts', 'test/**/*.test.ts'];

export const packageTests = (overrides: TestOptions = {}) =>
  defineConfig({
    test: {
      include: INCLUDE,
      typecheck: { enabled: true, include: ['src/**/*.test-d.ts', 'test/**/*.test-d.ts'] },
      passWithNoTests: false,
      ...overrides,
    },
  });

/**
 * A package whose suite holds timing or fairness assertions, in two groups one after the other: first the
 * files matching `twoAtOnce` two at a time (vitest's default on 2 cores is one; they hold no such
 * assertion), then every other file one at a time with nothing beside it, then the type tests. A new file
 * runs alone until it is listed.
 */
export const packageTestsTwoAtOnce = (twoAtOnce: string[], overrides: TestOptions = {}) => {
  // The projects inherit the rest; vitest would concatenate an `include` of the root with their own.
  const { include: _all, ...base } = packageTests(overrides).test ?? {};
  return defineConfig({
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
  });
};
