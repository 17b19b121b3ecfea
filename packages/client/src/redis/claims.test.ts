import type { Clock } from '@partner-print/openapi/wire';
import { createSandbox } from '@partner-print/sandbox';
import { describe, expect, it } from 'vitest';
import { type OrderClaimEvent, RedisOrderClaims } from './claims.ts';
import { ACQUIRE, RENEW } from './scripts.ts';

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

/** A Redis that grants every claim, renewal and release, counting the renewals. */
function grantingRedis() {
  const redis = {
    renewals: 0,
    client: {
      eval: async (script: string): Promise<unknown> => {
        if (script === RENEW) redis.renewals++;
        return script === ACQUIRE ? [1, 0, '', 0, ''] : 1;
      },
    },
  };
  return redis;
}

// The heartbeat of a held claim runs on the claims' clock, as every other wait of theirs does (and as render's
// Redis lease renews on its store's clock): a partner's test on a virtual clock holding a claim past its ttl saw
// no renewal at all (they ran on real time, every 10 s), and one that froze time saw them fire anyway.
describe('RedisOrderClaims: a held claim is renewed on the claims’ clock', () => {
  it('on the sandbox’s virtual clock: every ttlMs / 3 of it while held, none after the release', async () => {
    const { clock } = createSandbox();
    const redis = grantingRedis();
    const claims = new RedisOrderClaims({ client: redis.client, clock }); // ttlMs 30 000: a beat every 10 s
    const claim = await claims.acquire('Order-3');
    await clock.sleep(95_000); // past three times the ttl
    expect(redis.renewals).toBe(9);
    await claim.release({});
    await clock.sleep(60_000);
    expect(redis.renewals).toBe(9);
  });

  it('on a clock that does not move: no renewal on real time', async () => {
    const frozen: Clock = {
      now: () => 0,
      sleep: (_ms, signal) =>
        new Promise((_resolve, reject) =>
          signal?.addEventListener('abort', () => reject(signal.reason), { once: true }),
        ),
    };
    const redis = grantingRedis();
    const claims = new RedisOrderClaims({ client: redis.client, clock: frozen, ttlMs: 30 });
    const claim = await claims.acquire('Order-4');
    await new Promise((resolve) => setTimeout(resolve, 100)); // ten beats of real time
    expect(redis.renewals).toBe(0);
    await claim.release({});
  });
});

describe('RedisOrderClaims as a value', () => {
  it('JSON.stringify of it holds none of its options: a node-redis client (circular) does not make it throw', () => {
    const client: { eval: () => Promise<unknown>; self?: unknown } = { eval: async () => null };
    client.self = client; // a node-redis client refers to itself
    const claims = new RedisOrderClaims({ client });
    expect(JSON.stringify(claims)).toBe('{}');
    expect(JSON.stringify({ claims })).toBe('{"claims":{}}');
  });
});
