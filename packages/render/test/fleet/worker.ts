/**
 * One render worker of a fleet test: renders the given mockups against the sandbox server, sharing
 * known renders and leases through Redis. Started by harness.ts with an IPC channel; runs one task after
 * another until told to exit.
 */
import { createClient } from '@partner-print/client';
import { createClient as createRedisClient } from 'redis';
import { type RenderStore, renderMockup } from '../../src/index.ts';
import { RedisRenderStore } from '../../src/redis/index.ts';

export interface RenderJob {
  sceneReference: string;
  productReference: string;
  perspectiveReference: string;
  image: string;
}

export interface WorkerTask {
  kind: 'render-worker';
  apiUrl: string;
  secretKey: string;
  /** Without one, each worker keeps its renders in its own memory (the per-process default). */
  redisUrl?: string;
  /** The Redis store's deadline; 5 000 ms by default, for a live Redis on a loaded machine. */
  commandTimeoutMs?: number;
  jobs: RenderJob[];
  /**
   * How many of the last jobs wait for the harness's `release` message before they start (none by
   * default): the harness breaks something mid-run, then releases them, so that every worker has work
   * that meets the break whatever it had finished before it.
   */
  held?: number;
  startAt: number;
}

export interface WorkerResult {
  fulfilled: number;
  rejected: string[];
  tokensSpent: number;
  /** The composition's cost per POST /renders. */
  tokenCost: number;
  events: string[];
}

/** Renders every job at once (from `startAt`), through `cache` (or the client's own memory). */
async function render(
  task: WorkerTask,
  cache: RenderStore | undefined,
  events: string[],
): Promise<WorkerResult> {
  // Retries on (a loaded machine drops keep-alive sockets; the client never replays a POST), long timeout.
  const client = createClient({
    secretKey: task.secretKey,
    baseUrl: task.apiUrl,
    rateLimit: false,
    timeoutMs: 120_000,
  });
  await new Promise((r) => setTimeout(r, Math.max(0, task.startAt - Date.now())));
  const held = task.held ?? 0;
  const results = await Promise.allSettled(
    task.jobs.map(async (job, i) => {
      if (i >= task.jobs.length - held) await released;
      return renderMockup(client, {
        ...job,
        ...(cache ? { cache } : {}),
        pollIntervalMs: 500,
        checkCompatibility: false,
        ...(process.env.FLEET_DEBUG
          ? {
              onProgress: (event: { type: string }) => {
                if (event.type === 'submitted' || event.type === 'leased-elsewhere') debug(event.type);
              },
            }
          : {}),
      });
    }),
  );
  const result: WorkerResult = { fulfilled: 0, rejected: [], tokensSpent: 0, tokenCost: 0, events };
  for (const r of results) {
    if (r.status === 'fulfilled') {
      result.fulfilled++;
      result.tokensSpent += r.value.tokensSpent;
      result.tokenCost = r.value.composition.tokenCost;
    } else {
      result.rejected.push(String(r.reason));
      debug(`rejected: ${String(r.reason)}`);
    }
  }
  return result;
}

/**
 * The current task's held jobs start when this settles (see {@link WorkerTask.held}). Made when the task
 * arrives, before its start time: the harness's `release` may come before a slow worker's start.
 */
let release = () => {};
let released = Promise.resolve();

const born = Date.now();
const debug = (what: string): void => {
  if (process.env.FLEET_DEBUG)
    process.stderr.write(`worker ${process.pid}: ${what} at ${Date.now() - born} ms\n`);
};

async function run(task: WorkerTask): Promise<WorkerResult> {
  const events: string[] = [];
  if (!task.redisUrl) return render(task, undefined, events);
  const redis = createRedisClient({ url: task.redisUrl, socket: { reconnectStrategy: 100 } });
  redis.on('error', () => {});
  redis.connect().catch(() => {});
  const cache = new RedisRenderStore({
    client: redis,
    commandTimeoutMs: task.commandTimeoutMs ?? 5_000,
    retryMs: 60_000,
    onEvent: (event) => {
      events.push(event.type);
      debug(`${event.type}${'reason' in event ? ` (${event.reason})` : ''}`);
    },
  });
  try {
    return await render(task, cache, events);
  } finally {
    if (redis.isOpen) redis.destroy();
  }
}

const isTask = (message: unknown): message is WorkerTask =>
  typeof message === 'object' && message !== null && 'kind' in message && message.kind === 'render-worker';

// One task after another, so a test file boots its workers once; `exit` ends the process. Only our
// messages: a loader (tsx, when this file is run through it by hand) may use the IPC channel for its own.
process.on('message', (message: unknown) => {
  if (message === 'exit') process.exit(0);
  if (message === 'release') return release();
  if (!isTask(message)) return;
  released = new Promise<void>((resolve) => {
    release = resolve;
  });
  run(message).then(
    (result) => process.send?.({ result }),
    (error: unknown) => process.send?.({ error: String(error) }),
  );
});
process.send?.({ ready: true });
