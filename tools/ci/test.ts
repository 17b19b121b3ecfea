// `pnpm test`: everything CI checks, arranged so that the timed tests have the machine to themselves while
// the two cores are kept busy.
//
//   1. from the start, two things side by side:
//      - in the foreground, the timed files, one package at a time, one file at a time in one worker that
//        evaluates the package's modules once (`--mode=timed`, see vitest.base.ts): they hold timing and
//        fairness assertions that a loaded machine would make flaky.
//        The files a package lists as holding no such assertion (`packageTestsTwoAtOnce` in its
//        vitest.config.ts) wait for step 2. They run from the sources and need nothing built;
//      - in the background, in the idle scheduling class (`chrt --idle 0`: a process of that class runs only
//        on a core nothing else wants, so the timed files lose no CPU to it; children inherit the class):
//        lint, codegen drift and the builds, then the packed tarballs (publint/attw, the consumer
//        projects) and the size budgets; beside them one type check of the whole repository with every
//        package's type tests (`pnpm typecheck:all`: one program over tsconfig.check.json instead of one per
//        package, each of which checked the sources of the packages it imports again), then the independent
//        validators and the READMEs, then the untimed suites of openapi and the sandbox (UNTIMED_IN_BACKGROUND:
//        the core would be idle for the background's last ~50 s otherwise); from the start, the docs site
//        (the docs suite uses it in step 2).
//        Nothing there bounds a duration but the suites' timeouts, which only bound a hang. The timed files use about one core of the two; the background
//        takes the other (with tsgo's type check it had done its first steps ~60 s before the timed files
//        ended, and the validators fill that time);
//   2. once the timed files are done, everything at normal priority (the background's running steps move to
//      the normal class: see tools/ci/background.ts): the runtime matrix (flows with deadlines, beside
//      nothing but the background), then in two lanes side by side the suites that hold no timing
//      assertion (UNTIMED, but those the background ran) and the listed files of the others (`test:untimed`, two at a time, one
//      package at a time; one package's listed files follow the suites in their lane, so that the two
//      lanes end together: LISTED_AFTER_SUITES);
//   3. one closing line, "N passed, N failed", over every vitest report.
//
// `pnpm test --from=shipping` runs only the checks of what ships (build, tarballs, consumers, size, runtime
// matrix, validators, READMEs), to re-run them alone.
//
// The runtimes the matrix needs (Node 22/24, Bun, Deno, miniflare) are installed from npm during step 1, so
// that a fresh clone does not wait for them in step 2.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensure, RUNTIMES } from '../runtimes/install.ts';
import { Background } from './background.ts';

const root = new URL('../..', import.meta.url).pathname;
const started = Date.now();
const seconds = (since: number) => `${Math.round((Date.now() - since) / 1000)} s`;

const background = new Background();

interface Run {
  /** Prefixes every output line (lanes run side by side). */
  label: string;
  /** A background step (see tools/ci/background.ts). */
  background?: boolean;
}

/** Runs `pnpm <args>`, every output line prefixed with the label. */
function pnpm(args: string[], run: Run): Promise<number> {
  const [command = 'pnpm', ...rest] = run.background ? background.command('pnpm', args) : ['pnpm', ...args];
  return new Promise((resolve) => {
    const child = spawn(command, rest, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    if (run.background) background.started(child.pid);
    for (const stream of [child.stdout, child.stderr]) {
      let rest = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        const lines = (rest + chunk).split('\n');
        rest = lines.pop() ?? '';
        for (const line of lines) process.stdout.write(`[${run.label}] ${line}\n`);
      });
      stream.on('end', () => rest && process.stdout.write(`[${run.label}] ${rest}\n`));
    }
    child.on('close', (code) => {
      background.ended(child.pid);
      resolve(code ?? 1);
    });
  });
}

/** The workspace packages (and docs) with their directories and manifests. */
function workspace(): { dir: string; name: string; scripts: Record<string, string> }[] {
  const dirs = [
    ...readdirSync(join(root, 'packages')).map((name) => join(root, 'packages', name)),
    join(root, 'docs'),
  ];
  return dirs.map((dir) => ({ dir, ...JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) }));
}

/** Whether `dir`'s vitest.config.ts lists files to run two at a time (step 1 leaves them out). */
const listsUntimed = (dir: string): boolean => {
  const config = join(dir, 'vitest.config.ts');
  return existsSync(config) && readFileSync(config, 'utf8').includes('packageTestsTwoAtOnce(');
};

/**
 * Stops at once if a package lists untimed files (which `--mode=timed` leaves out) without the
 * `test:untimed` script (`vitest run --mode=untimed`) that runs them in step 2: they would run nowhere.
 */
function checkUntimedScripts(): void {
  const missing = workspace().filter(({ dir, scripts }) => listsUntimed(dir) && !scripts?.['test:untimed']);
  if (missing.length > 0) {
    const names = missing.map(({ name }) => name).join(', ');
    throw new Error(`tests that pnpm test would not run: add "test:untimed" to ${names}`);
  }
}

/**
 * The suites that hold no timing or fairness assertion (none bounds a duration from above that a busy
 * core could break): they run in step 2 beside the checks of what ships. Every other suite is timed and
 * runs its unlisted files in step 1, a new package included until it is listed here.
 */
const UNTIMED = ['@partner-print/openapi', '@partner-print/sandbox', '@partner-print/docs'];

/**
 * The untimed suites that run in step 1's background, in the idle class, after the validators and READMEs:
 * the background ends ~50 s before the timed files (a quiet clean clone of c54bf37: 143 s against 191 s)
 * and left that core idle, while step 2 is CPU-bound on both. Only suites whose tests wait on nothing but
 * their own CPU and whose timeouts (30 s) only bound a hang: a timed file's child processes may take both
 * cores for a few seconds, and an idle-class process then gets none. Docs stays in step 2: its browser
 * tests wait on Chromium with deadlines of 5–25 s. A clean-clone run of d1565e7 was red here once: openapi's
 * `overdue` test bounded its elapsed time from above (< 160 ms), and a starved process saw 1.2 s; that test now
 * counts its timer's windows, and neither suite bounds an elapsed time from above any more (a test's own
 * timeout aside, which bounds a hang).
 */
const UNTIMED_IN_BACKGROUND = ['@partner-print/openapi', '@partner-print/sandbox'];

/**
 * Packages whose listed files run in the suites' lane, after the suites, instead of in the listed lane: so
 * that step 2's two lanes end together. On a quiet clean clone of 6a858aa the suites' lane took 98 s and the
 * listed lane 122 s (migrate's spawned-CLI test has added ~10 s to it since); ratelimit's listed files take
 * ~15 s with their vitest's start. Since openapi's and the sandbox's suites run in step 1 (c54bf37's clone:
 * 18 s of the suites' lane's 97 s), the client's follow them too (13 s).
 */
const LISTED_AFTER_SUITES = ['@partner-print/ratelimit', '@partner-print/client'];

/** The vitest reporters: the console and a JSON report that tools/test-summary.ts adds up. */
const reporters = (file: string) => [
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=.test-results/${file}`,
];

/** `turbo run <task>` one package at a time, each package's vitest reporting into `.test-results/<report>`. */
const suites = (task: string, report: string, filters: string[] = [], vitestArgs: string[] = []) => [
  ...['exec', 'turbo', 'run', task, '--concurrency=1', ...filters],
  ...['--', ...vitestArgs, ...reporters(report)],
];

/** Runs the steps one after another; stops at the first failure. Returns the failed step, if any. */
async function lane(run: Run, steps: string[][]): Promise<string[]> {
  for (const step of steps) {
    const t = Date.now();
    const code = await pnpm(step, run);
    const outcome = code === 0 ? 'ok' : `FAILED (exit ${code})`;
    console.log(
      `[${run.label}] ${step.join(' ')}: ${outcome} in ${seconds(t)} (${seconds(started)} from the start)`,
    );
    if (code !== 0) return [step.join(' ')];
  }
  return [];
}

/** Runs `next` once every lane in `before` has succeeded; else returns their failures. */
async function after(before: Promise<string[]>[], next: () => Promise<string[]>): Promise<string[]> {
  const failed = (await Promise.all(before)).flat();
  return failed.length > 0 ? failed : next();
}

async function main(): Promise<number> {
  const log = (line: string) => console.log(`[runtimes install] ${line}`);
  const runtimes = Promise.all(Object.values(RUNTIMES).map((r) => ensure(r, log).catch(() => undefined)));
  const shippingOnly = process.argv.includes('--from=shipping');
  if (!shippingOnly) checkUntimedScripts();

  // Step 1: the background, in the idle class until the timed files are done.
  const idle = (label: string) => ({ label, background: true });
  const built = lane(idle('build'), [
    ['exec', 'turbo', 'run', ...(shippingOnly ? ['build'] : ['lint', 'codegen:check', 'build'])],
  ]);
  // Packed once: check:packages leaves its tarballs for the consumer projects.
  const tarballs = mkdtempSync(join(tmpdir(), 'pp-tarballs-'));
  const packed = after([built], () =>
    lane(idle('packages'), [
      ['run', 'check:packages', '--keep-tarballs', tarballs],
      ['run', 'size:check'],
      ['run', 'test:consumers', '--no-build', '--tarballs', tarballs],
    ]),
  ).finally(() => rmSync(tarballs, { recursive: true, force: true }));
  const typed = shippingOnly
    ? []
    : lane(idle('types'), [['run', 'typecheck:all', ...reporters('types.json')]]);
  // The docs site, which the docs suite's global setup would otherwise build first in step 2 (it builds
  // only when docs/dist is missing or older than its inputs); the docs suite waits for it.
  const site = shippingOnly
    ? Promise.resolve([])
    : lane(idle('site'), [['--filter', '@partner-print/docs', 'run', 'build:site']]);
  // The validators and READMEs: in the background once the builds (and the type check) are done.
  const checked = after([built, Promise.resolve(typed)], () =>
    lane(idle('checks'), [
      ['run', 'test:validators'],
      ['run', 'check:readmes'],
      ...(shippingOnly
        ? []
        : [
            suites(
              'test',
              'vitest.json',
              UNTIMED_IN_BACKGROUND.map((name) => `--filter=${name}`),
              ['--mode=files'],
            ),
          ]),
    ]),
  );
  // Step 1: the timed files, in the foreground.
  const notUntimed = UNTIMED.map((name) => `--filter=!${name}`);
  const timed = shippingOnly
    ? []
    : await lane({ label: 'timed' }, [suites('test', 'vitest.json', notUntimed, ['--mode=timed'])]);

  // Step 2, at normal priority, the background's steps too.
  background.promote();
  await runtimes;
  const matrix = after([built, Promise.resolve(timed)], () =>
    lane({ label: 'runtimes' }, [['run', 'test:runtimes', '--no-build']]),
  );
  const rest = (label: string, steps: string[][], before: Promise<string[]>[] = []) =>
    after([matrix, ...before], () => lane({ label }, steps));
  const lanes = await Promise.all([
    packed,
    typed,
    checked,
    site,
    ...(shippingOnly
      ? []
      : [
          rest(
            'suites',
            [
              suites(
                'test',
                'vitest.json',
                UNTIMED.filter((name) => !UNTIMED_IN_BACKGROUND.includes(name)).map(
                  (name) => `--filter=${name}`,
                ),
                ['--mode=files'],
              ),
              suites(
                'test:untimed',
                'untimed.json',
                LISTED_AFTER_SUITES.map((name) => `--filter=${name}`),
              ),
            ],
            [site],
          ),
          // One package at a time: two (session 27) made four vitest processes on two cores beside the
          // suites' lane, and the step took 128 and 138 s on quiet clean clones against 122 s; the packages
          // in one pool of three, longest first, 126 s. The step is CPU-bound either way.
          rest('listed', [
            suites(
              'test:untimed',
              'untimed.json',
              LISTED_AFTER_SUITES.map((name) => `--filter=!${name}`),
            ),
          ]),
        ]),
  ]);
  const failed = [...new Set(lanes.flat())];
  console.log(
    `\npnpm test: ${failed.length ? `FAILED (${failed.join('; ')})` : 'done'} in ${seconds(started)}`,
  );
  if (shippingOnly) return failed.length > 0 ? 1 : 0; // no suites ran: their reports would be stale
  // Last, so that the closing line is "N passed, N failed".
  const summary = spawnSync('pnpm', ['exec', 'tsx', 'tools/test-summary.ts'], {
    cwd: root,
    stdio: 'inherit',
  });
  return failed.length > 0 || summary.status !== 0 ? 1 : 0;
}

process.exitCode = await main();
