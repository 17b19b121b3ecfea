/**
 * One callback receiver process of a fleet test: the handler behind node:http on 127.0.0.1, coalescing
 * through Redis when given a URL. Started by harness.ts with an IPC channel; serves one task (a
 * configuration) at a time, reports its port, arrivals, and the coalescer's events as they happen.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient as createRedisClient } from 'redis';
import { stallFreeStopwatch } from '../../../../test-utils/stall.ts';
import { createOrderUpdatedHandler, type OrderFetcher } from '../../src/index.ts';
import { toNodeListener } from '../../src/node/index.ts';
import { createRedisCoalescer } from '../../src/redis/index.ts';

export interface ReceiverTask {
  kind: 'receiver';
  apiUrl: string;
  redisUrl?: string;
  windowMs: number;
  commandTimeoutMs: number;
  /** The coalescer's lease; its default when absent. */
  leaseMs?: number;
}

export type ReceiverMessage =
  | { type: 'ready'; port: number }
  | { type: 'event'; event: string }
  /** The process is up and waits for a task; `stopped`: the last task's server is closed. */
  | { type: 'booted' }
  | { type: 'stopped' }
  /** Notifications received so far (sent every 20 ms while it changes). */
  | { type: 'arrived'; count: number }
  /** The longest a notification waited here for its answer since the last report (ms, without this process's stalls). */
  | { type: 'answered'; slowestMs: number }
  /** Notifications that arrived since the last report: their order and when (ms, this machine's clock). */
  | { type: 'arrivals'; arrivals: [order: string, at: number][] };

const send = (message: ReceiverMessage): void => {
  process.send?.(message);
};

/** Serves one configuration until `stop`: the handler behind node:http, through Redis when given a URL. */
async function serve(task: ReceiverTask): Promise<() => Promise<void>> {
  let coalescer: ReturnType<typeof createRedisCoalescer> | undefined;
  let redis: ReturnType<typeof createRedisClient> | undefined;
  if (task.redisUrl) {
    // No retries of its own: the coalescer's deadline decides when Redis counts as gone.
    redis = createRedisClient({ url: task.redisUrl, socket: { reconnectStrategy: 100 } });
    redis.on('error', () => {});
    // Not awaited: Redis unreachable at start must not stop the receiver from serving.
    redis.connect().catch(() => {});
    coalescer = createRedisCoalescer({
      client: redis,
      commandTimeoutMs: task.commandTimeoutMs,
      ...(task.leaseMs === undefined ? {} : { leaseMs: task.leaseMs }),
      retryMs: 60_000,
      onEvent: (event) => send({ type: 'event', event: event.type }),
    });
  }
  // A bare fetcher rather than the client: this measures coalescing, nothing else.
  const client: OrderFetcher<{ reference: string }> = {
    async get(_path, init) {
      const response = await fetch(`${task.apiUrl}/orders/${init.params.path.orderReference}`, {
        signal: init.signal ?? null,
      });
      if (!response.ok) throw new Error(`order API answered ${response.status}`);
      return (await response.json()) as { order: { reference: string } };
    },
  };
  const handler = createOrderUpdatedHandler({
    client,
    environment: 'test',
    windowMs: task.windowMs,
    ...(coalescer ? { coalescer } : {}),
    onOrderUpdated: () => {},
    onError: (error, { stage }) => {
      if (process.env.FLEET_DEBUG) process.stderr.write(`${stage}: ${String(error)}\n`);
    },
  });
  let arrived = 0;
  let reported = 0;
  let slowest = 0;
  let arrivals: [string, number][] = [];
  // A wait is timed without this process's stalls (test-utils/stall.ts): on a starved machine a receiver
  // stalled for seconds made a wait of 8 to 10 s of one that took a window and a round.
  const watch = stallFreeStopwatch();
  const listener = toNodeListener(async (request) => {
    arrived++;
    const at = Date.now();
    const since = watch.elapsed();
    const order = [...new URL(request.url).searchParams.values()].find((v) => v.startsWith('Order_'));
    arrivals.push([order ?? '', at]);
    try {
      return await handler(request);
    } finally {
      slowest = Math.max(slowest, watch.elapsed() - since);
    }
  });
  const reporting = setInterval(() => {
    if (slowest > 0) send({ type: 'answered', slowestMs: slowest });
    slowest = 0;
    if (arrivals.length > 0) send({ type: 'arrivals', arrivals });
    arrivals = [];
    if (arrived === reported) return;
    reported = arrived;
    send({ type: 'arrived', count: arrived });
  }, 20);
  const server = createServer({ keepAliveTimeout: 120_000 }, listener).listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  send({ type: 'ready', port });
  return async () => {
    clearInterval(reporting);
    watch.stop();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    if (redis?.isOpen) redis.destroy();
  };
}

const isTask = (message: unknown): message is ReceiverTask =>
  typeof message === 'object' && message !== null && 'kind' in message && message.kind === 'receiver';

// One configuration at a time, so a test file boots its receiver processes once. Only our messages: a loader
// (tsx, when this file is run through it by hand) may use the IPC channel for its own.
let stop: Promise<() => Promise<void>> | undefined;
process.on('message', (message: unknown) => {
  if (isTask(message)) {
    stop = serve(message);
    stop.catch((error: unknown) => {
      process.stderr.write(`receiver failed: ${String(error)}\n`);
      process.exit(1);
    });
  } else if (message === 'stop') {
    void stop?.then(async (close) => {
      await close();
      send({ type: 'stopped' });
    });
    stop = undefined;
  } else if (message === 'exit') process.exit(0);
});
send({ type: 'booted' });
