/**
 * A fleet of render workers for tests and the bench: the sandbox served on 127.0.0.1 (real time, renders
 * finishing after `renderProcessingMs`), `mockups` distinct images uploaded once, and N worker processes
 * that all render the same mockups. POSTs are counted by the rendertokens they spent.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createClient } from '@partner-print/client';
import { startSandboxServer } from '@partner-print/sandbox/node';
import { pngBytes } from '../helpers.ts';
import type { RenderJob, WorkerResult, WorkerTask } from './worker.ts';

function startWorker(task: Omit<WorkerTask, 'startAt'>, startAt: number): Promise<WorkerResult> {
  const script = fileURLToPath(new URL('./worker.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise<WorkerResult>((resolve, reject) => {
    child.on('message', (message: { ready?: true; result?: WorkerResult; error?: string }) => {
      if (message.ready) child.send({ ...task, startAt });
      if (message.result) resolve(message.result);
      if (message.error) reject(new Error(message.error));
    });
    child.once('exit', (code) => reject(new Error(`worker exited with ${code}`)));
  });
}

export interface FleetRun {
  posts: number;
  results: WorkerResult[];
  ms: number;
}

export async function runRenderFleet(options: {
  workers: number;
  mockups: number;
  /** Without it, each worker renders through its own in-process store. */
  redisUrl?: string;
  /** Runs this long after the workers start (e.g. to kill Redis mid-run). */
  during?: { afterMs: number; run: () => Promise<void> | void };
}): Promise<FleetRun> {
  const server = await startSandboxServer({
    port: 0,
    sandbox: { rateLimits: false, jitter: 0, renderProcessingMs: 500, rendertokenLimit: 1_000_000 },
  });
  try {
    const { seed, keys } = server.sandbox;
    const client = createClient({
      secretKey: keys.primary,
      baseUrl: server.url,
      retry: false,
      rateLimit: false,
    });
    const jobs: RenderJob[] = [];
    for (let i = 0; i < options.mockups; i++) {
      jobs.push({
        sceneReference: seed.scenes.studio,
        productReference: seed.products.print,
        perspectiveReference: seed.perspectives.studioFront,
        image: await client.uploadImage(pngBytes(i)),
      });
    }
    const used = async () => (await client.get('/rendertokens')).rendertokens.used;
    const before = await used();
    const task = {
      kind: 'render-worker' as const,
      apiUrl: server.url,
      secretKey: keys.primary,
      ...(options.redisUrl ? { redisUrl: options.redisUrl } : {}),
      jobs,
    };
    // Every worker starts at the same instant, once all have booted.
    const startAt = Date.now() + 15_000;
    const started = Date.now();
    const running = Promise.all(Array.from({ length: options.workers }, () => startWorker(task, startAt)));
    if (options.during) {
      await new Promise((r) => setTimeout(r, startAt - Date.now() + options.during!.afterMs));
      await options.during.run();
    }
    const results = await running;
    const tokenCost = Math.max(...results.map((r) => r.tokenCost));
    return { posts: ((await used()) - before) / tokenCost, results, ms: Date.now() - started };
  } finally {
    await server.close();
  }
}
