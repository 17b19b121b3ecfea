import { describe, expect, it } from 'vitest';
import { createScheduler, type SchedulerOptions } from './scheduler.ts';

const fetch = async () => new Response('{}');

describe('createScheduler checks its options', () => {
  // Each of these was taken as given: NaN concurrency (an unset setting read with Number()) admitted one
  // request and left every other pending for ever; NaN maxRetries retried a 429 without end; a NaN
  // maxRetryAfterMs gave every 429 back unretried; a NaN store deadline timed out every call to a shared store,
  // so the process spent the quota alone; a typo was ignored. (A function or object of the wrong type fails
  // loudly at its first use and is not checked here.)
  it.each<[string, Record<string, unknown>]>([
    ['concurrency', { concurrency: Number.NaN }],
    ['concurrency', { concurrency: 0 }],
    ['concurrency', { concurrency: '4' }],
    ['maxRetries', { maxRetries: Number.NaN }],
    ['maxRetries', { maxRetries: -1 }],
    ['maxRetryAfterMs', { maxRetryAfterMs: Number.NaN }],
    ['maxRetryAfterMs', { maxRetryAfterMs: -1 }],
    ['maxRetryAfterMs', { maxRetryAfterMs: Number.POSITIVE_INFINITY }],
    ['storeTimeoutMs', { storeTimeoutMs: Number.NaN }],
    ['storeTimeoutMs', { storeTimeoutMs: Number.POSITIVE_INFINITY }],
    ['storeRetryMs', { storeRetryMs: -5 }],
    ['concurency', { concurency: 4 }],
  ])('refuses %s in %j', (name, bad) => {
    expect(() => createScheduler({ fetch, ...bad } as SchedulerOptions)).toThrow(
      expect.objectContaining({ name: 'TypeError', message: expect.stringContaining(name) }),
    );
  });

  it('takes what it documents, and undefined as "the default"', async () => {
    for (const options of [
      {},
      { concurrency: 1, maxRetries: 0, maxRetryAfterMs: 0, storeTimeoutMs: 1, storeRetryMs: 0 },
      { concurrency: Number.POSITIVE_INFINITY, maxRetries: 20, maxRetryAfterMs: 1e9 },
      { concurrency: undefined, maxRetries: undefined, priorityHeader: false as const, key: 'org' },
      { priorityHeader: 'x-priority', key: () => 'org', classify: () => undefined, random: () => 0 },
    ]) {
      const s = createScheduler({ fetch, ...options });
      expect((await s.fetch('http://127.0.0.1:1/orders')).status).toBe(200);
      s.close();
    }
  });

  it('says which value it got, never a header value', () => {
    expect(() => createScheduler({ fetch, concurrency: Number.NaN })).toThrow(
      'createScheduler: concurrency must be a number ≥ 1, got NaN',
    );
  });
});

describe('RedisStore checks its options', () => {
  // A NaN or fractional ttlMs/staleMs failed every script call at Redis's PX, which the scheduler reads as
  // Redis down: each process then spent the organization's quota alone, and nothing said why.
  const client = { scriptLoad: async () => '', evalSha: async () => null, eval: async () => null };
  it.each<[string, Record<string, unknown>]>([
    ['ttlMs', { ttlMs: Number.NaN }],
    ['ttlMs', { ttlMs: 1.5 }],
    ['ttlMs', { ttlMs: Number.POSITIVE_INFINITY }],
    ['staleMs', { staleMs: 0 }],
    ['staleMs', { staleMs: '60000' }],
    ['clinet', { clinet: client }],
  ])('refuses %s in %j', async (name, bad) => {
    const { RedisStore } = await import('./redis.ts');
    expect(() => new RedisStore({ client, ...bad } as never)).toThrow(
      expect.objectContaining({ name: 'TypeError', message: expect.stringContaining(name) }),
    );
  });

  it('takes what it documents', async () => {
    const { RedisStore } = await import('./redis.ts');
    for (const options of [
      {},
      { ttlMs: 1, staleMs: 1, time: 'redis' as const, prefix: 'x' },
      { time: 'caller' as const },
    ])
      expect(new RedisStore({ client, ...options } as never)).toBeInstanceOf(RedisStore);
  });
});
