/**
 * A fleet of render workers for tests and the bench: the sandbox served on 127.0.0.1 (real time, renders
 * finishing after `renderProcessingMs`), `mockups` distinct images uploaded once, and N worker processes
 * that all render the same mockups. POSTs are counted by the rendertokens they spent.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { createClient } from '@partner-print/client';
import { createSandbox, type Sandbox, type SandboxOptions } from '@partner-print/sandbox';
import { workerScript } from '../../../../test-utils/worker-script.ts';
import { pngBytes } from '../helpers.ts';
import type { RenderJob, WorkerResult, WorkerTask } from './worker.ts';

async function answer(sandbox: Sandbox, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value])
      headers.append(name, item);
  }
  const body = req.method === 'GET' || req.method === 'HEAD' ? null : Readable.toWeb(req);
  const request = new Request(new URL(req.url ?? '/', 'http://127.0.0.1'), {
    method: req.method ?? 'GET',
    headers,
    body: body as ReadableStream<Uint8Array> | null,
    ...(body ? { duplex: 'half' } : {}),
  });
  const response = await sandbox.fetch(request);
  res.writeHead(response.status, [...response.headers].flat());
  res.end(Buffer.from(await response.arrayBuffer()));
}

/**
 * The sandbox on 127.0.0.1, keeping idle connections open for two minutes. With Node's default 5 s, a
 * worker stalled on a loaded machine reuses a connection the server has just closed, and a POST on it
 * fails as ambiguous (the client never repeats one): the test would count the machine, not the renders.
 */
async function serveSandbox(options: Omit<SandboxOptions, 'origin'>) {
  let sandbox: Sandbox | undefined;
  const server = createServer({ keepAliveTimeout: 120_000 }, (req, res) => {
    if (!sandbox) return void res.writeHead(503).end();
    answer(sandbox, req, res).catch(() => res.destroy());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  sandbox = createSandbox({ ...options, origin: `http://127.0.0.1:${port}` });
  const served = sandbox;
  return {
    url: served.baseUrl,
    sandbox: served,
    close: async () => {
      served.close();
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/** A worker process: boots once (the bundled SDK), then runs one task after another. */
class WorkerProcess {
  readonly #child: ChildProcess;
  readonly booted: Promise<void>;
  #settle: { resolve(result: WorkerResult): void; reject(error: Error): void } | undefined;

  constructor(script: string) {
    this.#child = spawn(process.execPath, [script], {
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.booted = new Promise<void>((resolve, reject) => {
      this.#child.on('message', (message: { ready?: true; result?: WorkerResult; error?: string }) => {
        if (message.ready) resolve();
        if (message.result) this.#settle?.resolve(message.result);
        if (message.error) this.#settle?.reject(new Error(message.error));
      });
      this.#child.once('exit', (code) => {
        const error = new Error(`worker exited with ${code}`);
        reject(error);
        this.#settle?.reject(error);
      });
    });
    this.booted.catch(() => {});
  }

  /** Starts rendering at `startAt` (every worker the same instant); resolves with the worker's result. */
  run(task: Omit<WorkerTask, 'startAt'>, startAt: number): Promise<WorkerResult> {
    return new Promise<WorkerResult>((resolve, reject) => {
      this.#settle = { resolve, reject };
      this.#child.send({ ...task, startAt });
    });
  }

  /** Starts the current task's held jobs. */
  release(): void {
    this.#child.send('release');
  }

  async exit(): Promise<void> {
    if (this.#child.exitCode !== null) return;
    const exited = once(this.#child, 'exit');
    this.#child.send('exit');
    const timer = setTimeout(() => this.#child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  }
}

export type RenderWorkers = WorkerProcess[];

/** Boots `count` worker processes for several runs; end them with {@link stopRenderWorkers}. */
export async function startRenderWorkers(count: number): Promise<RenderWorkers> {
  const script = workerScript(new URL('./worker.ts', import.meta.url));
  const workers = Array.from({ length: count }, () => new WorkerProcess(script));
  try {
    await Promise.all(workers.map((w) => w.booted));
  } catch (error) {
    await stopRenderWorkers(workers);
    throw error;
  }
  return workers;
}

export async function stopRenderWorkers(workers: RenderWorkers): Promise<void> {
  await Promise.all(workers.map((w) => w.exit()));
}

export interface FleetRun {
  posts: number;
  results: WorkerResult[];
  ms: number;
}

export async function runRenderFleet(options: {
  /** A number of workers to boot for this run alone, or workers booted once for several runs. */
  workers: number | RenderWorkers;
  mockups: number;
  /** Without it, each worker renders through its own in-process store. */
  redisUrl?: string;
  /** The Redis store's command deadline in the workers; 5 000 ms by default (see worker.ts). */
  commandTimeoutMs?: number;
  /**
   * Runs once the first POST /renders has been paid (e.g. to kill Redis mid-run). The last fifth of the
   * mockups is held back in every worker until it has run, so that every worker still has mockups to look
   * up, lease and store after it: without that, a worker that had leased or learned every mockup's render
   * before a late kill never spoke to Redis again (it happened once in CI, on a loaded machine).
   */
  during?: () => Promise<void> | void;
}): Promise<FleetRun> {
  const t0 = Date.now();
  const debug = (what: string) => {
    if (process.env.FLEET_DEBUG) process.stderr.write(`fleet: ${what} at ${Date.now() - t0} ms\n`);
  };
  // Workers of this run alone boot (the bundled SDK) while the sandbox starts and the images upload.
  const own = typeof options.workers === 'number';
  const booting =
    typeof options.workers === 'number'
      ? startRenderWorkers(options.workers)
      : Promise.resolve(options.workers);
  booting.catch(() => {});
  const server = await serveSandbox({
    clock: 'real',
    rateLimits: false,
    jitter: 0,
    renderProcessingMs: 500,
    rendertokenLimit: 1_000_000,
  });
  try {
    const { seed, keys } = server.sandbox;
    const client = createClient({
      secretKey: keys.primary,
      baseUrl: server.url,
      retry: false,
      rateLimit: false,
    });
    const images = await Promise.all(
      Array.from({ length: options.mockups }, (_, i) => client.uploadImage(pngBytes(i))),
    );
    const jobs: RenderJob[] = images.map((image) => ({
      sceneReference: seed.scenes.studio,
      productReference: seed.products.print,
      perspectiveReference: seed.perspectives.studioFront,
      image,
    }));
    debug(`${options.mockups} images uploaded`);
    const used = async () => (await client.get('/rendertokens')).rendertokens.used;
    const before = await used();
    const task = {
      kind: 'render-worker' as const,
      apiUrl: server.url,
      secretKey: keys.primary,
      ...(options.redisUrl ? { redisUrl: options.redisUrl } : {}),
      ...(options.commandTimeoutMs ? { commandTimeoutMs: options.commandTimeoutMs } : {}),
      ...(options.during ? { held: Math.ceil(options.mockups / 5) } : {}),
      jobs,
    };
    // Every worker starts at the same instant, once all have booted.
    const workers = await booting;
    debug('workers booted');
    const startAt = Date.now() + 200;
    const started = Date.now();
    const running = Promise.all(workers.map((worker) => worker.run(task, startAt)));
    if (options.during) {
      let finished = false;
      running.then(
        () => (finished = true),
        () => (finished = true),
      );
      while (!finished && (await used()) === before) await new Promise((r) => setTimeout(r, 10));
      debug('first render paid');
      await options.during();
      for (const worker of workers) worker.release();
    }
    const results = await running;
    debug('workers done');
    const tokenCost = Math.max(...results.map((r) => r.tokenCost));
    return { posts: ((await used()) - before) / tokenCost, results, ms: Date.now() - started };
  } finally {
    if (own) await booting.then(stopRenderWorkers, () => {});
    await server.close();
  }
}
