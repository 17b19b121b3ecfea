import { afterAll, beforeAll } from 'vitest';
import { type RedisServer, startRedisServer } from './redis-server.ts';

/** The part of a node-redis client (`createClient({ url })`) this helper uses. */
interface RedisConnection {
  on(event: 'error', listener: (error: Error) => void): unknown;
  connect(): Promise<unknown>;
  quit(): Promise<unknown>;
}

/**
 * A redis-server for one test file, with one connection on it made by `create` (node-redis's `createClient`,
 * passed by the test: this folder does not depend on it): started and connected before the file's tests, its
 * errors left to the code under test, both stopped after them. Read `server` and `client` inside the tests.
 */
export function redisForFile<C extends RedisConnection>(
  create: (options: { url: string }) => C,
): { server: RedisServer; client: C } {
  const held = {} as { server: RedisServer; client: C };
  beforeAll(async () => {
    held.server = await startRedisServer();
    const client = create({ url: held.server.url });
    client.on('error', () => {});
    await client.connect();
    held.client = client;
    // Only a bound on a hang: startRedisServer fails a server that does not start within 10 s in which this
    // process could run, which on a starved machine was more than 20 s of wall time.
  }, 60_000);
  afterAll(async () => {
    await held.client?.quit().catch(() => {});
    await held.server?.stop();
  });
  return held;
}
