import { describe, expect, it } from 'vitest';
import { type OrderClaimEvent, RedisOrderClaims } from './claims.ts';

/** A Redis that grants the first claim and then goes away: every later script call fails. */
function vanishingRedis() {
  const redis = {
    calls: 0,
    client: {
      eval: async (): Promise<unknown> => {
        redis.calls++;
        if (redis.calls === 1) return [1, 0, '', 0, '']; // taken
        throw new Error('connection lost');
      },
    },
  };
  return redis;
}

describe('RedisOrderClaims: releases an outage put off', () => {
  it('abandonReleases() stops their retries: a release-failed event each, nothing owed, no call after', async () => {
    const redis = vanishingRedis();
    const events: OrderClaimEvent[] = [];
    const claims = new RedisOrderClaims({ client: redis.client, on: (e) => events.push(e) });
    const claim = await claims.acquire('Order-1');
    await claim.release({ created: undefined, unsettled: false }); // missed: retried until the claim's TTL
    expect(claims.pendingReleases).toBe(1);
    const stop = new AbortController();
    stop.abort();
    await claims.flush(stop.signal); // stops waiting; the retries would go on for 30 s
    expect(claims.pendingReleases).toBe(1);

    claims.abandonReleases();
    await claims.flush(); // nothing is retried any more: at once
    expect(claims.pendingReleases).toBe(0);
    expect(events.map((e) => e.type)).toEqual(['unavailable', 'release-failed']);
    expect(events[1]).toMatchObject({ customIdentifier: 'Order-1' });
    const calls = redis.calls;
    await new Promise((resolve) => setTimeout(resolve, 400)); // past the first retries' waits (100, 200 ms)
    expect(redis.calls).toBe(calls);
  });

  it('a release owed after abandonReleases() is retried again', async () => {
    const redis = vanishingRedis();
    const claims = new RedisOrderClaims({ client: redis.client });
    claims.abandonReleases(); // nothing owed yet: no effect on what comes later
    const claim = await claims.acquire('Order-2');
    await claim.release({ created: undefined, unsettled: false });
    const calls = redis.calls;
    await new Promise((resolve) => setTimeout(resolve, 250)); // the first retry comes after 100 ms
    expect(redis.calls).toBeGreaterThan(calls);
    claims.abandonReleases();
    await claims.flush();
    expect(claims.pendingReleases).toBe(0);
  });
});
