// `orders --submit` creates each order through the client's createOrder (idempotent by customIdentifier,
// settle window after unknown outcomes); `--redis <url>` shares its order claims between processes.
import {
  createOrder,
  type OrderClaims,
  type OrderRequest,
  type PartnerPrintBaseClient,
} from '@partner-print/client';
import { UsageError } from './files.ts';
import type { CliIO } from './io.ts';

export interface Submitted {
  status: 'created' | 'existing';
  orderReference: string;
}

/** One createOrder per line: `existing` when the identifier already had this order (this run or an earlier one). */
export function createSubmitter(
  client: PartnerPrintBaseClient,
  options: { claims?: OrderClaims; signal: AbortSignal },
) {
  const { claims, signal } = options;
  return async (order: OrderRequest): Promise<Submitted> => {
    const result = await createOrder(client, order, { signal, ...(claims ? { claims } : {}) });
    return { status: result.created ? 'created' : 'existing', orderReference: result.order.reference };
  };
}

/** Claims whose holders first wait out a settle window for `ids` (posted by an earlier run, outcome unknown). */
export function settleFirst(claims: OrderClaims, ids: ReadonlySet<string> = new Set()): OrderClaims {
  if (ids.size === 0) return claims;
  return {
    acquire: async (id, signal) => {
      const claim = await claims.acquire(id, signal);
      return ids.has(id) ? { ...claim, unsettled: true } : claim;
    },
  };
}

/** How long closing waits for Redis to acknowledge QUIT before dropping the connection. */
const QUIT_WAIT_MS = 1_000;

/**
 * QUIT waits for Redis to answer, without end while it is unreachable (Ctrl-C during an outage): then, or
 * when it takes longer than {@link QUIT_WAIT_MS}, the connection is dropped instead.
 */
async function closeRedis(client: Pick<RedisClient, 'quit' | 'disconnect' | 'isReady'>): Promise<void> {
  const drop = async (): Promise<void> => {
    // Throws at once (not rejects) when QUIT already closed the client.
    await Promise.resolve()
      .then(() => client.disconnect())
      .catch(() => {});
  };
  if (!client.isReady) return drop();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const quit = client.quit().then(
    () => true,
    () => true,
  );
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), QUIT_WAIT_MS);
  });
  if (!(await Promise.race([quit, late]))) await drop();
  clearTimeout(timer);
}

type RedisClient = ReturnType<RedisModule['createClient']>;

interface RedisModule {
  createClient(options: { url: string; disableOfflineQueue?: boolean }): {
    on(event: 'error', listener: (error: unknown) => void): unknown;
    connect(): Promise<unknown>;
    quit(): Promise<unknown>;
    disconnect(): Promise<unknown>;
    readonly isReady: boolean;
    eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  };
}

/**
 * `--redis <url>`: order claims in Redis (node-redis, installed by the user). While Redis is unreachable,
 * no order is posted: claims wait for it (the CLI says so once per outage) and give up after 5 minutes.
 */
export async function openRedisClaims(
  url: string,
  io: CliIO,
): Promise<{ claims: OrderClaims & { readonly pendingReleases: number }; close(): Promise<void> }> {
  let redis: RedisModule;
  try {
    const name = 'redis'; // optional: only --redis needs it
    redis = (await import(name)) as RedisModule;
  } catch (e) {
    throw new UsageError(`--redis needs the redis package (npm i redis): ${(e as Error).message}`);
  }
  const { RedisOrderClaims } = await import('@partner-print/client/redis');
  const client = redis.createClient({ url, disableOfflineQueue: true });
  client.on('error', () => {}); // reported through the claims' events below
  try {
    await client.connect();
  } catch (e) {
    throw new UsageError(`--redis: cannot connect to ${new URL(url).host}: ${(e as Error).message}`);
  }
  const claims = new RedisOrderClaims({
    client,
    on: (event) => {
      if (event.type === 'unavailable')
        io.stderr.write(
          'Redis is unreachable: no order is posted until it is back (waiting up to 5 minutes)\n',
        );
      if (event.type === 'available') io.stderr.write('Redis is reachable again\n');
    },
  });
  return {
    claims,
    close: async () => {
      // Releases an outage put off go through before Redis is closed, so this run's claims do not hold other
      // workers for their TTL; Ctrl-C ends the wait (those claims then expire on their own).
      if (!io.signal?.aborted && claims.pendingReleases > 0)
        io.stderr.write(
          'Releasing the order claims Redis missed during its outage (Ctrl-C to leave them to expire)\n',
        );
      await claims.flush(io.signal);
      // After Ctrl-C their retries stop too (a retry in flight ends as the client closes): else their
      // timers would keep the process alive until the claims expire.
      const leaving = io.signal?.aborted === true;
      if (leaving) claims.abandonReleases();
      await closeRedis(client);
      if (leaving) await claims.flush();
    },
  };
}
