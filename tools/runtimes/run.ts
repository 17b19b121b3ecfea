// pnpm test:runtimes — builds the packages, bundles tools/runtimes/flow.ts against their dist/ with
// tsdown (rolldown) into one self-contained ESM file per target, and runs it under Node 20 (this
// machine's), Node 22, Node 24, Bun, Deno, Cloudflare workerd (miniflare) and Chromium. Prints a
// table, writes it into README.md between the runtimes markers, exits 1 if any runtime failed.
// Each runtime gets its own pair of hostile servers (hostile-server.ts) on 127.0.0.1, their origins and a random
// key; after it, run.ts checks itself that the second server never received that key. Runtimes run side by
// side (RUNTIMES_PARALLEL, default 4): they wait on sockets far more than they use the 2 cores.
//
//   pnpm test:runtimes                 everything
//   pnpm test:runtimes bun deno        only these (names as in the table's first column)
//   RUNTIMES_PARALLEL=1 pnpm test:runtimes   one runtime at a time (default 4 side by side)
//   pnpm test:runtimes --no-build      skip `pnpm build` (dist/ must be current)
//   pnpm test:runtimes --no-readme     do not rewrite README.md
//   pnpm test:runtimes --no-typecheck  skip type-checking the flow against the built declarations
import { execFile, execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CHROMIUM, CHROMIUM_ARGS } from '../lib/chromium.ts';
import { pool } from '../lib/pool.ts';
import { bundle } from './bundle.ts';
import type { FlowResult } from './flow.ts';
import { type HostileServers, type HostileTargets, startHostileServers } from './hostile-server.ts';
import { cacheDir, ensure, RUNTIMES } from './install.ts';

const root = new URL('../..', import.meta.url).pathname;
const args = process.argv.slice(2);
const only = args.filter((a) => !a.startsWith('--'));
const TIMEOUT_MS = 120_000;
const log = (line: string) => console.error(`[runtimes] ${line}`);

interface Row {
  name: string;
  result?: FlowResult;
  error?: string;
  wallMs: number;
}

const RESULT_PREFIX = 'FLOW_RESULT ';

/** Runs a command that prints the flow's result line. */
function runCli(cmd: string, argv: string[], env: Record<string, string> = {}): Promise<FlowResult> {
  return new Promise((resolve, reject) => {
    execFile(
      cmd,
      argv,
      { cwd: cacheDir, timeout: TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, ...env } },
      (error, stdout, stderr) => {
        const line = stdout.split('\n').find((l) => l.startsWith(RESULT_PREFIX));
        // A flow that passed but whose process had to be killed left something open (a timer, a port).
        if (line && error?.killed)
          return reject(
            new Error(`the flow ended but the process did not exit by itself within ${TIMEOUT_MS} ms`),
          );
        if (line) return resolve(JSON.parse(line.slice(RESULT_PREFIX.length)) as FlowResult);
        const why = error ? `${error.message}` : 'no result line';
        reject(new Error(`${why}\n${stderr.slice(-2000)}`));
      },
    );
  });
}

/** The part of miniflare's API used here (it is installed into the cache, not the workspace). */
type MiniflareClass = new (
  options: Record<string, unknown>,
) => {
  dispatchFetch(
    url: string,
    init?: { signal?: AbortSignal },
  ): Promise<{ ok: boolean; status: number; text(): Promise<string> }>;
  dispose(): Promise<void>;
};

async function runWorkerd(file: string, targets: HostileTargets): Promise<FlowResult> {
  const entry = await ensure(RUNTIMES.miniflare, log);
  const { Miniflare } = (await import(pathToFileURL(entry).href)) as { Miniflare: MiniflareClass };
  // No nodejs_compat flag: the bundle must run on the plain Workers runtime.
  const mf = new Miniflare({
    modules: true,
    scriptPath: file,
    compatibilityDate: '2026-04-20',
    host: '127.0.0.1',
  });
  try {
    const url = `http://127.0.0.1/run?hostile=${encodeURIComponent(JSON.stringify(targets))}`;
    const res = await mf.dispatchFetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
    const text = await res.text();
    if (!res.ok) throw new Error(`worker answered ${res.status}: ${text.slice(0, 2000)}`);
    const workerd = join(cacheDir, RUNTIMES.miniflare.dir, 'node_modules', 'workerd', 'package.json');
    const { version } = JSON.parse(readFileSync(workerd, 'utf8')) as { version: string };
    return { ...(JSON.parse(text) as FlowResult), version: `workerd ${version}` };
  } finally {
    await mf.dispose();
  }
}

async function runChromium(file: string, targets: HostileTargets): Promise<FlowResult> {
  const { chromium } = await import('playwright-core');
  const code = readFileSync(file);
  const server = createServer((req, res) => {
    if (req.url === '/flow.js') {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(code);
    } else if (req.url?.split('?')[0] === '/') {
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end('<!doctype html><title>flow</title><script type="module" src="/flow.js"></script>\n');
    } else {
      res.writeHead(404).end();
    }
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
  });
  try {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`http://127.0.0.1:${port}/?hostile=${encodeURIComponent(JSON.stringify(targets))}`);
    try {
      await page.waitForFunction(() => (globalThis as { __flowResult?: unknown }).__flowResult, undefined, {
        timeout: TIMEOUT_MS,
      });
    } catch (e) {
      throw new Error(`no result from the page${errors.length ? `: ${errors.join('; ')}` : ''} (${e})`);
    }
    const result = (await page.evaluate(
      () => (globalThis as { __flowResult?: unknown }).__flowResult,
    )) as FlowResult;
    return { ...result, version: browser.version() };
  } finally {
    await browser.close();
    server.closeAllConnections();
    server.close();
  }
}

interface Runtime {
  name: string;
  target: 'cli' | 'worker' | 'browser';
  run(file: string, targets: HostileTargets): Promise<FlowResult>;
}

const hostileArg = (t: HostileTargets) => `--hostile=${JSON.stringify(t)}`;
/** Deno's only permission: the network, to the two hostile servers' ports (no files, no environment). */
const denoNet = (t: HostileTargets) => `--allow-net=${new URL(t.a).host},${new URL(t.b).host}`;

const runtimes: Runtime[] = [
  { name: 'Node 20', target: 'cli', run: (f, t) => runCli(process.execPath, [f, hostileArg(t)]) },
  {
    name: 'Node 22',
    target: 'cli',
    run: async (f, t) => runCli(await ensure(RUNTIMES.node22, log), [f, hostileArg(t)]),
  },
  {
    name: 'Node 24',
    target: 'cli',
    run: async (f, t) => runCli(await ensure(RUNTIMES.node24, log), [f, hostileArg(t)]),
  },
  {
    name: 'Bun',
    target: 'cli',
    run: async (f, t) => runCli(await ensure(RUNTIMES.bun, log), ['run', f, hostileArg(t)]),
  },
  {
    name: 'Deno',
    target: 'cli',
    run: async (f, t) =>
      runCli(
        await ensure(RUNTIMES.deno, log),
        ['run', '--no-prompt', '--no-config', '--no-lock', denoNet(t), f, hostileArg(t)],
        { DENO_DIR: join(cacheDir, 'deno', 'cache'), DENO_NO_UPDATE_CHECK: '1' },
      ),
  },
  { name: 'workerd', target: 'worker', run: runWorkerd },
  { name: 'Chromium', target: 'browser', run: runChromium },
];

/** The flow step that measures the runtime's own fetch under `redirect: 'manual'` (hostile.ts). */
const MANUAL_REDIRECT_STEP = "fetch redirect: 'manual'";

/** "7/7", or "6/6, 1 n/a (reason)" when a step could not run here. */
function stepsCell(r: FlowResult): string {
  const na = r.steps.filter((s) => s.na);
  const run = r.steps.filter((s) => !s.na);
  const count = `${run.filter((s) => s.ok).length}/${run.length}`;
  if (!na.length) return count;
  return `${count}, ${na.length} n/a (${na.map((s) => `${s.name}: ${s.na}`).join('; ')})`;
}

/** The README table: no timings, so that a run that changes nothing leaves README.md as it was. */
function table(rows: Row[], timings: boolean): string {
  const lines = [
    `| Runtime | Version | Result | Steps | Cross-origin 302 under \`redirect: 'manual'\` |${timings ? ' Flow time |' : ''}`,
    `|---|---|---|---|---|${timings ? '---|' : ''}`,
  ];
  for (const row of rows) {
    const r = row.result;
    if (!r) {
      lines.push(`| ${row.name} | – | ❌ failed to run | – | – |${timings ? ' – |' : ''}`);
      continue;
    }
    const failed = r.steps.filter((s) => !s.ok).map((s) => s.name);
    const result = r.ok ? '✅ pass' : `❌ fail (${failed.join(', ')})`;
    const manual = r.steps.find((s) => s.name === MANUAL_REDIRECT_STEP);
    const redirect = manual?.na ? 'n/a' : manual?.ok ? manual.detail : '–';
    lines.push(
      `| ${row.name} | ${r.version} | ${result} | ${stepsCell(r)} | ${redirect} |${timings ? ` ${r.ms} ms |` : ''}`,
    );
  }
  return lines.join('\n');
}

/** run.ts's own check, outside the runtime: the second origin never received the key. */
function checkLeaks(row: Row, servers: HostileServers): void {
  const leaks = servers.leaksToB();
  if (!row.result || leaks === 0) return;
  row.result.ok = false;
  row.result.steps.push({
    name: 'no key at the other origin (checked by run.ts)',
    ok: false,
    ms: 0,
    error: `the second server received ${leaks} request(s) carrying the key`,
  });
}

function writeReadme(markdown: string): void {
  const file = join(root, 'README.md');
  const text = readFileSync(file, 'utf8');
  const start = '<!-- runtimes:start -->';
  const end = '<!-- runtimes:end -->';
  const a = text.indexOf(start);
  const b = text.indexOf(end);
  if (a < 0 || b < a) {
    log('README.md has no runtimes markers; table not written');
    return;
  }
  const next = `${text.slice(0, a + start.length)}\n${markdown}\n${text.slice(b)}`;
  if (next !== text) writeFileSync(file, next);
}

/** `pnpm <args>`: the pnpm running this script (pnpm test:runtimes), else the pinned one through npx. */
function pnpm(argv: string[]): void {
  const running = process.env.npm_execpath;
  if (running && /pnpm/.test(running)) {
    execFileSync(process.execPath, [running, ...argv], { cwd: root, stdio: 'inherit' });
    return;
  }
  const { packageManager } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    packageManager: string;
  };
  execFileSync('npx', ['-y', packageManager, ...argv], { cwd: root, stdio: 'inherit' });
}

/** How many runtimes run at once (each with its own pair of hostile servers). */
const PARALLEL = Number(process.env.RUNTIMES_PARALLEL ?? 4);

/** One runtime against its own hostile servers, so that runtimes running side by side share no state. */
async function runOne(runtime: Runtime, file: string): Promise<Row> {
  const servers = await startHostileServers();
  const t = Date.now();
  let row: Row;
  try {
    const result = await runtime.run(file, servers.targets);
    row = { name: runtime.name, result, wallMs: Date.now() - t };
  } catch (error) {
    row = { name: runtime.name, error: String((error as Error).message ?? error), wallMs: Date.now() - t };
  }
  checkLeaks(row, servers);
  await servers.close();
  log(`${runtime.name}: ${row.result?.ok ? 'pass' : 'FAIL'} (${row.wallMs} ms)`);
  return row;
}

async function main(): Promise<void> {
  const started = Date.now();
  if (!args.includes('--no-build')) {
    log('pnpm build');
    pnpm(['build', '--output-logs=errors-only']);
  }
  if (!args.includes('--no-typecheck')) {
    // tsgo (TypeScript's checker ported to Go, as pnpm typecheck:all): 1.7 s here against 9 s for `npx tsc`,
    // and this step is on pnpm test's critical path, before every runtime.
    log('tsgo -p tools/runtimes (the flow against the built .d.ts files)');
    execFileSync(join(root, 'node_modules/.bin/tsgo'), ['-p', join(root, 'tools/runtimes/tsconfig.json')], {
      cwd: root,
      stdio: 'inherit',
    });
  }
  const selected = runtimes.filter(
    (r) => only.length === 0 || only.some((o) => r.name.toLowerCase().replace(/\s/g, '') === o.toLowerCase()),
  );
  const outDir = join(cacheDir, 'bundles');
  const files = new Map<Runtime['target'], string>();
  for (const target of new Set(selected.map((r) => r.target))) {
    files.set(target, await bundle(target, outDir));
  }
  log(`bundled ${[...files.values()].map((f) => f.replace(root, '')).join(', ')}`);

  // Install what is missing in parallel, then run the runtimes side by side: each spends most of its time
  // waiting on sockets, not on the 2 cores.
  await Promise.all(
    [RUNTIMES.node22, RUNTIMES.node24, RUNTIMES.bun, RUNTIMES.deno, RUNTIMES.miniflare].map((r) =>
      ensure(r, log).catch(() => undefined),
    ),
  );
  const rows = await pool(selected, PARALLEL, (runtime) => runOne(runtime, files.get(runtime.target)!));
  console.log(`\n${table(rows, true)}\n`);
  const steps = rows[0]?.result?.steps ?? [];
  for (const step of steps) console.log(`${step.name}: ${step.detail ?? step.na ?? step.error}`);
  console.log('');
  for (const row of rows) {
    if (row.error) console.log(`${row.name}: ${row.error}\n`);
    for (const step of row.result?.steps ?? []) {
      if (!step.ok) console.log(`${row.name} › ${step.name}: ${step.error}`);
    }
  }
  writeFileSync(join(cacheDir, 'results.json'), `${JSON.stringify(rows, null, 2)}\n`);
  if (!args.includes('--no-readme') && only.length === 0) writeReadme(table(rows, false));
  const ok = rows.every((r) => r.result?.ok);
  console.log(`runtimes: ${ok ? 'all passed' : 'FAILED'} in ${Math.round((Date.now() - started) / 1000)} s`);
  process.exit(ok ? 0 : 1);
}

await main();
