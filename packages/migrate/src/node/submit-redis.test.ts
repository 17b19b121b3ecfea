import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProxy } from '../../../../test-utils/redis-proxy.ts';
import { type RedisServer, startRedisServer } from '../../../../test-utils/redis-server.ts';
import { timeWithoutStalls } from '../../../../test-utils/stall.ts';
import { newSandbox, run, tempDir } from '../../test/helpers.ts';
import { openRedisClaims } from './submit.ts';

// A real redis-server on 127.0.0.1, started here; without it this test fails, never skips.
let server: RedisServer;
beforeAll(async () => {
  server = await startRedisServer();
}, 20_000);
afterAll(async () => {
  await server?.stop();
});

const isLookup = (q: Request) =>
  new URL(q.url).pathname.endsWith('/lookup-order-reference-by-custom-identifier');

describe('orders --submit --redis', () => {
  it('two runs submitting the same orders at once create each once, even with a lookup that lags', async () => {
    const sb = newSandbox({ pageSize: 200 });
    const line = (i: number) =>
      JSON.stringify({
        store_code: sb.seed.storeCodes.combined,
        shipping_kind: 'combined',
        partner_reference: `FLEET-${i}`,
        orderlines: [{ sku: sb.seed.legacySkus.nonPrint, quantity: 1 }],
      });
    const lines = Array.from({ length: 50 }, (_, i) => line(i + 1));
    const files = [0, 1].map(() => {
      const file = join(tempDir(), 'orders.jsonl');
      writeFileSync(file, `${lines.join('\n')}\n`);
      return file;
    });
    // The lookup never sees an order (a lag longer than the runs): only the claims keep the runs apart.
    const lagging = (q: Request) =>
      isLookup(q)
        ? new Response(JSON.stringify({ code: 'not_found', message: 'lagging' }), { status: 404 })
        : undefined;
    const count = async () => {
      const res = await sb.fetch(
        new Request(`${sb.baseUrl}/orders`, { headers: { 'X-Service-Secret-Key': sb.keys.primary } }),
      );
      return ((await res.json()) as { orders: unknown[] }).orders.length;
    };
    const submitBoth = (extra: string[]) =>
      Promise.all(
        files.map((file) =>
          run(['orders', file, '--sandbox', '--submit', '--json', '--concurrency', '4', ...extra], {
            sandbox: sb,
            intercept: lagging,
          }),
        ),
      );

    const withRedis = await submitBoth(['--redis', server.url]);
    expect(withRedis.map((r) => r.code)).toEqual([0, 0]);
    const counts = withRedis.map((r) => JSON.parse(r.stdout).counts);
    expect((counts[0].created ?? 0) + (counts[1].created ?? 0)).toBe(50);
    expect(await count()).toBe(50);

    // The reproduction: the same without --redis (new identifiers) creates duplicates.
    lines.splice(0, 50, ...lines.map((l) => l.replaceAll('FLEET-', 'ALONE-')));
    for (const file of files) writeFileSync(file, `${lines.join('\n')}\n`);
    await submitBoth([]);
    expect(await count()).toBeGreaterThan(100);
  });

  // A release Redis missed during an outage is retried in the background; a CLI that quit Redis and exited
  // first left the claim to hold every other worker on that identifier for its 30 s TTL.
  it('closing waits for the claim releases Redis missed during an outage; Ctrl-C leaves them to expire', async () => {
    const proxy = await startProxy(server.port);
    const interrupt = new AbortController();
    let stderr = '';
    const io = {
      stdout: { write: () => true },
      stderr: {
        write: (s: string) => {
          stderr += s;
          return true;
        },
      },
      env: {},
      signal: interrupt.signal,
    };
    try {
      const open = async (id: string) => {
        const redis = await openRedisClaims(proxy.url, io);
        const claim = await redis.claims.acquire(id);
        proxy.cut();
        await claim.release({ created: undefined, unsettled: false }); // missed: retried later
        return redis;
      };
      const first = await open('CLOSED-1');
      setTimeout(() => proxy.restore(), 500);
      await first.close();
      expect(stderr).toContain('Releasing the order claims Redis missed');
      // Released: the next worker takes the claim at once, not after the TTL.
      const next = await openRedisClaims(server.url, io);
      // Timed without the process's stalls (test-utils/stall.ts): a starved test must not read as a wait.
      const taking = await timeWithoutStalls(async () =>
        (await next.claims.acquire('CLOSED-1')).release({ created: undefined, unsettled: false }),
      );
      expect(taking.ms).toBeLessThan(5_000);

      const second = await open('CLOSED-2');
      interrupt.abort(); // Ctrl-C: close does not wait for Redis to come back
      const closing = await timeWithoutStalls(() => second.close());
      expect(closing.ms).toBeLessThan(2_000);
      // ...and stops retrying them: no retry keeps the CLI's process alive until their TTL after Ctrl-C.
      expect(second.claims.pendingReleases).toBe(0);
      await next.close();
    } finally {
      proxy.restore();
      await proxy.close();
    }
  });
});
