import { createSandbox } from '@partner-print/sandbox';
import { describe, expect, it } from 'vitest';
import { createScheduler } from '../src/index.ts';

const RENDER = `Render_${'0'.repeat(26)}`;
const PRODUCT = `Product_${'0'.repeat(26)}`;

type RateLimits = NonNullable<Parameters<typeof createSandbox>[0]>['rateLimits'];

function setup(rateLimits: RateLimits) {
  const sandbox = createSandbox({ rateLimits, jitter: 0 });
  const statuses: number[] = [];
  const calls: { at: number; path: string }[] = [];
  const fetch = async (request: Request): Promise<Response> => {
    calls.push({ at: sandbox.clock.now(), path: `${request.method} ${new URL(request.url).pathname}` });
    const response = await sandbox.fetch(request);
    statuses.push(response.status);
    return response;
  };
  const scheduler = createScheduler({ fetch, clock: sandbox.clock });
  const headers = { 'X-Service-Secret-Key': sandbox.keys.primary };
  return { sandbox, scheduler, statuses, calls, headers };
}

describe('against the sandbox (virtual clock)', () => {
  it('uploads take a token from default and from uploads, and wait for the uploads refill', async () => {
    const { sandbox, scheduler, statuses, headers } = setup({
      default: { q: 50, w: 10 },
      uploads: { q: 2, w: 60 },
    });
    const start = sandbox.clock.now();
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        scheduler.fetch(`${sandbox.baseUrl}/images`, {
          method: 'POST',
          headers: { ...headers, 'Content-Type': 'application/octet-stream' },
          body: new Uint8Array([0x89, 0x50, 0x4e, 0x47]),
        }),
      ),
    );
    expect(statuses).not.toContain(429);
    expect(results.map((r) => r.status)).not.toContain(429);
    // Two from the full bucket, then one every 30 s.
    expect(sandbox.clock.now() - start).toBeGreaterThanOrEqual(89_000);
    expect(scheduler.stats().routes).toEqual({ 'POST /images': ['default', 'uploads'] });
  });

  it('downloads take a token from default and from downloads', async () => {
    const { sandbox, scheduler, statuses, headers } = setup({
      default: { q: 50, w: 10 },
      downloads: { q: 3, w: 30 },
    });
    const start = sandbox.clock.now();
    await Promise.all([
      ...Array.from({ length: 4 }, () =>
        scheduler.fetch(`${sandbox.baseUrl}/renders/${RENDER}/media`, { headers }),
      ),
      ...Array.from({ length: 2 }, () =>
        scheduler.fetch(`${sandbox.baseUrl}/products/${PRODUCT}/media/front.png`, { headers }),
      ),
    ]);
    expect(statuses).not.toContain(429);
    // Three from the full bucket, then one every 10 s.
    expect(sandbox.clock.now() - start).toBeGreaterThanOrEqual(29_000);
    expect(scheduler.stats().routes).toMatchObject({
      'GET /renders/*/media': ['default', 'downloads'],
      'GET /products/*/media/*': ['default', 'downloads'],
    });
  });

  it('follows a policy change made on the server mid-run', async () => {
    const { sandbox, scheduler, statuses, headers } = setup({ default: { q: 5, w: 5 } });
    const changes: { name: string; quota: number }[] = [];
    scheduler.on('policy-changed', (e) => changes.push({ name: e.name, quota: e.quota }));
    await Promise.all(
      Array.from({ length: 10 }, () => scheduler.fetch(`${sandbox.baseUrl}/claims`, { headers })),
    );
    sandbox.control.setRateLimits({ default: { q: 20, w: 5 } });
    const start = sandbox.clock.now();
    await Promise.all(
      Array.from({ length: 40 }, () => scheduler.fetch(`${sandbox.baseUrl}/claims`, { headers })),
    );
    expect(changes).toEqual([
      { name: 'default', quota: 5 },
      { name: 'default', quota: 20 },
    ]);
    // 4 tokens/s after the change instead of 1/s (at 1/s the 40 calls would take more than 35 s; the
    // sandbox answers after up to seconds of virtual time).
    expect(sandbox.clock.now() - start).toBeLessThan(15_000);
    expect(statuses.filter((s) => s === 429).length).toBeLessThanOrEqual(1);
  });

  it('after a 429 caused by another client, pauses the bucket for Retry-After and retries', async () => {
    const { sandbox, scheduler, calls, headers } = setup({ default: { q: 5, w: 50 } });
    // Learn the bucket first, then let another client of the organization drain it behind our back.
    await scheduler.fetch(`${sandbox.baseUrl}/claims`, { headers });
    for (let i = 0; i < 4; i++) {
      await sandbox.fetch(`${sandbox.baseUrl}/claims`, {
        headers: { 'X-Service-Secret-Key': sandbox.keys.secondary },
      });
    }
    const throttled: number[] = [];
    scheduler.on('throttled', (e) => throttled.push(e.retryAfterSeconds));
    const t0 = sandbox.clock.now();
    const before = calls.length;
    const results = await Promise.all(
      Array.from({ length: 3 }, () => scheduler.fetch(`${sandbox.baseUrl}/claims`, { headers })),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(throttled.length).toBeGreaterThanOrEqual(1);
    const [refused, ...rest] = calls.slice(before);
    const pauseEnd = (refused?.at ?? t0) + (throttled[0] ?? 0) * 1000;
    // The first met the empty bucket; the two others went along the start pace before its 429 came back.
    // Every retry waits for the pause.
    const after = rest.slice(2);
    expect(after.length).toBeGreaterThan(0);
    for (const call of after) expect(call.at).toBeGreaterThanOrEqual(pauseEnd);
  });
});
