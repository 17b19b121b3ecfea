// The one test configuration of every package: tests next to the code and flows in test/, type tests with
// vitest's typecheck. A package's vitest.config.ts states only what differs (a global setup, timeouts).
//
// `vitest run` runs the files and then the type tests. `pnpm test` runs them apart, by vitest's mode:
//   --mode=files    every file, no type tests (the suites `pnpm test` lists as untimed);
//   --mode=timed    the files that must run alone (in a package without a `twoAtOnce` list: every file):
//                   step 1 of `pnpm test`, in the foreground, with only idle-class work beside them;
//   --mode=untimed  the files a package lists in `twoAtOnce` (none bounds a duration from above), two at
//                   a time: step 2, beside the checks of what ships;
//   --mode=types    the package's type tests only (vitest's typecheck: one `tsc` over the whole package).
//                   `pnpm test` runs every package's type tests in one type check (tsgo) of the whole repository
//                   instead (`pnpm typecheck:all`, vitest.types.config.ts).
//
// The three modes `pnpm test` runs (`files`, `timed`, `untimed`) share modules between files: a worker
// evaluates the package and its imports once, not once per file (vitest's `isolate: false`; it still
// restores spies after each file). That was about a third of the untimed files' CPU, and of the timed
// files' import time, which is wall time on `pnpm test`'s critical path. So every file stops what it starts
// (servers, Redis clients, child processes, timers, rounds that hang) and puts back what it changes
// (OpenTelemetry globals, listeners on `process`, fake timers, env) by its last hook: a timed file must
// not leave work running beside the next one. A file that changes what the next file sees in a way it
// cannot undo (vi.mock, vi.resetModules) is listed as `fresh` and keeps a fresh module graph. `vitest
// run` isolates every file as before: a developer's run does not depend on the order files meet in a
// worker.
import {
  configDefaults,
  defineConfig,
  type TestProjectInlineConfiguration,
  type ViteUserConfig,
} from 'vitest/config';

type TestOptions = NonNullable<ViteUserConfig['test']>;

const INCLUDE = ['src/**/*.test.ts', 'test/**/*.test.ts'];
/**
 * `ASYNC_LEAKS=1 vitest run ...` fails a file that leaves a timer, socket, server or child process alive
 * after its last hook (test-utils/async-leaks.ts); first of the setup files, so its afterAll runs last.
 * Docs' own config uses it too.
 */
export const LEAKS = process.env.ASYNC_LEAKS
  ? [new URL('./test-utils/async-leaks.ts', import.meta.url).pathname]
  : [];
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
  setupFiles: [...LEAKS, ...[overrides.setupFiles ?? []].flat()],
});

/** Whether files share a worker's modules in `mode` (see above); docs' own config asks too. */
export const sharesModules = (mode: string) => mode === 'files' || mode === 'timed' || mode === 'untimed';

/** A package whose files all run two at a time (its config sets `maxWorkers`). */
export const packageTests = (overrides: TestOptions = {}) =>
  defineConfig(({ mode }) => ({
    test: { ...options(mode, overrides), isolate: !sharesModules(mode) },
  }));

/**
 * A package whose suite holds timing or fairness assertions, in two groups one after the other: first the
 * files matching `twoAtOnce` two at a time (vitest's default on 2 cores is one; they hold no such
 * assertion), then every other file one at a time with nothing beside it, then the type tests. A new file
 * runs alone until it is listed. `--mode=timed` runs only the second group, `--mode=untimed` only the
 * first (with a 30 s test timeout: beside the checks of what ships, on a busy machine, a timeout only
 * bounds a hang). In both, files share modules except those in `fresh` (listed or not), which run after
 * the others of their group with a module graph of their own each.
 */
export const packageTestsTwoAtOnce = (
  twoAtOnce: string[],
  overrides: TestOptions = {},
  fresh: string[] = [],
) =>
  defineConfig(({ mode }) => {
    // The type tests alone need no groups.
    if (mode === 'types') return { test: options(mode, overrides) };
    // The projects inherit the rest; vitest would concatenate an `include` of the root with their own.
    const { include: _all, ...base } = options(mode, overrides);
    const shared = sharesModules(mode);
    const listed = (
      name: string,
      include: string[],
      groupOrder: number,
      isolate: boolean,
    ): TestProjectInlineConfiguration => ({
      extends: true,
      test: {
        name,
        include,
        maxWorkers: 2,
        isolate,
        sequence: { groupOrder },
        typecheck: { enabled: false },
        ...(mode === 'untimed' ? { testTimeout: Math.max(overrides.testTimeout ?? 0, 30_000) } : {}),
      },
    });
    const alone = (name: string, include: string[], exclude: string[], isolate: boolean) => ({
      extends: true as const,
      test: {
        name,
        include,
        exclude: [...(base.exclude ?? configDefaults.exclude), ...exclude],
        maxWorkers: 1,
        isolate,
        sequence: { groupOrder: 2 + Number(isolate && shared) },
        // Stated again: a project that extends the root re-reads it in vitest's default mode.
        typecheck: base.typecheck,
      },
    });
    const freshAlone = fresh.filter((file) => !twoAtOnce.includes(file));
    const timed = [alone('alone', INCLUDE, [...twoAtOnce, ...(shared ? freshAlone : [])], !shared)];
    if (shared && freshAlone.length > 0) timed.push(alone('alone, fresh', freshAlone, [], true));
    if (mode === 'timed') return { test: { ...base, projects: timed } };
    if (mode !== 'untimed')
      return { test: { ...base, projects: [listed('two at once', twoAtOnce, 0, true), ...timed] } };
    const sharing = listed(
      'two at once',
      twoAtOnce.filter((file) => !fresh.includes(file)),
      0,
      false,
    );
    const freshListed = fresh.filter((file) => twoAtOnce.includes(file));
    const own = freshListed.length > 0 ? [listed('two at once, fresh', freshListed, 1, true)] : [];
    return { test: { ...base, projects: [sharing, ...own] } };
  });
