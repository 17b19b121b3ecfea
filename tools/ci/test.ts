// `pnpm test`: everything CI checks, in the order that keeps the timed tests alone on the machine.
//
//   1. lint, codegen drift, typecheck and build (turbo runs them side by side). A package with type tests
//      (*.test-d.ts) is type-checked by its type tests in step 3: vitest's typecheck runs the same
//      `tsc -p tsconfig.json` over the whole package (any error in any file fails them), so step 1
//      type-checks only the others instead of running that tsc twice;
//   2. the timed files, one package at a time, one file at a time (`--mode=timed`, see vitest.base.ts):
//      they hold timing and fairness assertions that a loaded machine would make flaky, so nothing else
//      runs beside them. The files a package lists as holding no such assertion (`packageTestsTwoAtOnce`
//      in its vitest.config.ts) wait for step 3;
//   3. everything untimed, in four lanes side by side (they wait on child processes, sockets, browsers
//      and the registry far more than they use the cores): the packed tarballs (publint/attw, then the
//      consumer projects) in one; the runtime matrix, the independent validators, the size budgets, the
//      READMEs, then the type tests of every package that has them (`test:types`) in another; in the
//      third, one package at a time, the suites that hold no timing assertion (UNTIMED); in the fourth,
//      one package at a time, the listed files of the others (`test:untimed`, two at a time);
//   4. one closing line, "N passed, N failed", over every package's vitest reports.
//
// `pnpm test --from=shipping` runs only the first two lanes of step 3 (after a build), to re-run the checks
// of what ships alone.
//
// The runtimes the matrix needs (Node 22/24, Bun, Deno, miniflare) are installed from npm during steps 1
// and 2, which are not network-bound, so that a fresh clone does not wait for them in step 3.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensure, RUNTIMES } from '../runtimes/install.ts';

const root = new URL('../..', import.meta.url).pathname;
const started = Date.now();
const seconds = (since: number) => `${Math.round((Date.now() - since) / 1000)} s`;

/** Runs `pnpm <args>`; with a label, every output line is prefixed with it (lanes run side by side). */
function pnpm(args: string[], label?: string): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn('pnpm', args, { cwd: root, stdio: label ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    if (label) {
      for (const stream of [child.stdout, child.stderr]) {
        let rest = '';
        stream?.setEncoding('utf8');
        stream?.on('data', (chunk: string) => {
          const lines = (rest + chunk).split('\n');
          rest = lines.pop() ?? '';
          for (const line of lines) process.stdout.write(`[${label}] ${line}\n`);
        });
        stream?.on('end', () => rest && process.stdout.write(`[${label}] ${rest}\n`));
      }
    }
    child.on('close', (code) => resolve(code ?? 1));
  });
}

/** Whether `dir` holds a `*.test-d.ts` file (node_modules and dist aside). */
function hasTypeTests(dir: string): boolean {
  return readdirSync(dir, { withFileTypes: true }).some((entry) =>
    entry.isDirectory()
      ? !['node_modules', 'dist', '.tmp'].includes(entry.name) && hasTypeTests(join(dir, entry.name))
      : entry.name.endsWith('.test-d.ts'),
  );
}

/** The workspace packages (and docs) with their directories and manifests. */
function workspace(): { dir: string; name: string; scripts: Record<string, string> }[] {
  const dirs = [
    ...readdirSync(join(root, 'packages')).map((name) => join(root, 'packages', name)),
    join(root, 'docs'),
  ];
  return dirs.map((dir) => ({ dir, ...JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) }));
}

/** Whether `dir`'s vitest.config.ts lists files to run two at a time (step 2 leaves them out). */
const listsUntimed = (dir: string): boolean => {
  const config = join(dir, 'vitest.config.ts');
  return existsSync(config) && readFileSync(config, 'utf8').includes('packageTestsTwoAtOnce(');
};

/**
 * The packages with type tests, as turbo filters excluding them from step 1's typecheck. Each must have a
 * `test:types` script (`vitest run --mode=types`), and a package listing untimed files a `test:untimed`
 * script (`vitest run --mode=untimed`): without them those tests would run nowhere.
 */
function typeTestedFilters(): string[] {
  const packages = workspace();
  const missing = [
    ...packages.filter(({ dir, scripts }) => hasTypeTests(dir) && !scripts?.['test:types']),
    ...packages.filter(({ dir, scripts }) => listsUntimed(dir) && !scripts?.['test:untimed']),
  ];
  if (missing.length > 0) {
    const names = missing.map(({ name }) => name).join(', ');
    throw new Error(`tests that pnpm test would not run: add "test:types"/"test:untimed" to ${names}`);
  }
  return packages.filter(({ dir }) => hasTypeTests(dir)).map(({ name }) => `--filter=!${name}`);
}

/**
 * The suites that hold no timing or fairness assertion (none bounds a duration from above that a busy
 * core could break): they run in step 3 beside the checks of what ships. Every other suite is timed and
 * runs alone in step 2, a new package included until it is listed here.
 */
const UNTIMED = ['@partner-print/openapi', '@partner-print/sandbox', '@partner-print/docs'];

/** The vitest reporters: the console and a JSON report per package that tools/test-summary.ts adds up. */
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

/** Runs the steps one after another; stops at the first failure. */
async function lane(label: string, steps: string[][]): Promise<string[]> {
  const failed: string[] = [];
  for (const step of steps) {
    const t = Date.now();
    const code = await pnpm(step, label);
    console.log(
      `[${label}] ${step.join(' ')}: ${code === 0 ? 'ok' : `FAILED (exit ${code})`} in ${seconds(t)}`,
    );
    if (code !== 0) {
      failed.push(step.join(' '));
      break;
    }
  }
  return failed;
}

/**
 * Step 3, in four lanes side by side: the tarballs; the runtime matrix and the other checks, then the type
 * tests; the untimed suites; the untimed files of the other packages. The runtime matrix (seven
 * runtimes at once, flows with deadlines) starts beside the tarball checks only, as before the suites
 * joined this step: with the suites and the type tests beside it too, and other sessions' tests on the
 * machine (load 8), two runtimes' flows ran past their deadlines. The last two lanes start once it is done.
 */
async function step3(withSuites: boolean): Promise<string[]> {
  // The type tests (one `tsc` per package, ~95 s of CPU) close the checks lane, the shortest without them
  // (~140 s against ~200–280 s for the others in a quiet run), so that the lanes end near one another. On
  // two full cores that moved only where they wait: 593 s for the whole command against 598 s.
  const typeTests = suites('test:types', 'types.json');
  const matrix = lane('checks', [['run', 'test:runtimes', '--no-build']]);
  const lanes = await Promise.all([
    lane('packages', [
      ['run', 'check:packages'],
      ['run', 'test:consumers', '--no-build'],
    ]),
    matrix.then((failed) =>
      failed.length > 0
        ? failed
        : lane('checks', [
            ['run', 'test:validators'],
            ['run', 'size:check'],
            ['run', 'check:readmes'],
            ...(withSuites ? [typeTests] : []),
          ]),
    ),
    withSuites
      ? matrix.then(() =>
          lane('suites', [
            suites(
              'test',
              'vitest.json',
              UNTIMED.map((name) => `--filter=${name}`),
              ['--mode=files'],
            ),
          ]),
        )
      : [],
    withSuites ? matrix.then(() => lane('listed', [suites('test:untimed', 'untimed.json')])) : [],
  ]);
  return lanes.flat();
}

async function main(): Promise<number> {
  const log = (line: string) => console.log(`[runtimes install] ${line}`);
  const runtimes = Promise.all(Object.values(RUNTIMES).map((r) => ensure(r, log).catch(() => undefined)));

  const shippingOnly = process.argv.includes('--from=shipping');
  const checks = shippingOnly ? ['build'] : ['lint', 'codegen:check', 'build'];
  const step1 = await Promise.all([
    pnpm(['exec', 'turbo', 'run', ...checks]),
    shippingOnly ? 0 : pnpm(['exec', 'turbo', 'run', 'typecheck', ...typeTestedFilters()], 'typecheck'),
  ]);
  if (step1.some((code) => code !== 0)) return 1;
  const timed = shippingOnly
    ? 0
    : await pnpm(
        suites(
          'test',
          'vitest.json',
          UNTIMED.map((name) => `--filter=!${name}`),
          ['--mode=timed'],
        ),
      );
  await runtimes;
  const failed = timed !== 0 ? ['the timed package suites'] : await step3(!shippingOnly);
  console.log(
    `\npnpm test: ${failed.length ? `FAILED (${failed.join('; ')})` : 'done'} in ${seconds(started)}`,
  );
  if (shippingOnly) return failed.length > 0 ? 1 : 0; // no suites ran: their reports would be stale
  // Last, so that the closing line is "N passed, N failed".
  const summary = await pnpm(['exec', 'tsx', 'tools/test-summary.ts']);
  return failed.length > 0 || summary !== 0 ? 1 : 0;
}

process.exitCode = await main();
