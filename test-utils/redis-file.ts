import { afterAll, beforeAll } from 'vitest';
import { type RedisServer, startRedisServer } from './redis-server.ts';

/**
 * A redis-server for one test file, with one connection on it: started before the file's tests (`connect`
 * makes the connection, e.g. node-redis's `createClient({ url }).connect()`), both stopped after them. Read
 * `server` and `client` inside the tests.
 */
export function redisForFile<C extends { quit(): Promise<unknown> }>(
  connect: (url: string) => Promise<C>,
): { server: RedisServer; client: C } {
  const held = {} as { server: RedisServer; client: C };
  beforeAll(async () => {
    held.server = await startRedisServer();
    held.client = await connect(held.server.url);
  }, 20_000);
  afterAll(async () => {
    await held.client?.quit().catch(() => {});
    await held.server?.stop();
  });
  return held;
}
