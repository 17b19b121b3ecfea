// The sandbox writes the rate-limit wire format with its own code; the SDK reads it with its own (DESIGN: the
// two halves share nothing, so a misreading cannot cancel itself out). This test runs both halves over the
// spec's table of routes: what the sandbox says a request spent is what the SDK's routing table says it spends.
import { bucketsOf, parseRetryAfter, RATE_LIMIT_ROUTES, referencePattern } from '@partner-print/openapi/wire';
import { createSandbox } from '@partner-print/sandbox';
import { describe, expect, it } from 'vitest';
import { parseRateLimitHeaders } from '../src/index.ts';

const OPAQUE = 'A'.repeat(26);
const PARAM_PREFIX: Record<string, string> = {
  claimReference: 'Claim',
  orderReference: 'Order',
  shipmentReference: 'Shipment',
  compositionReference: 'Composition',
  sceneReference: 'Scene',
  perspectiveReference: 'Perspective',
  renderReference: 'Render',
  productReference: 'Product',
};

// A concrete path for a template: references well formed (they need not exist: a 404 spends the same).
const concrete = (template: string) =>
  template.replace(/\{(\w+)\}/g, (_, name: string) =>
    name === 'filename' ? 'front.png' : `${PARAM_PREFIX[name] ?? 'Order'}_${OPAQUE}`,
  );

describe('sandbox headers and the SDK routing table agree', () => {
  it.each(RATE_LIMIT_ROUTES.map((r) => [r.operationId, r] as const))('%s', async (_, route) => {
    const sandbox = createSandbox();
    const path = concrete(route.path);
    const response = await sandbox.fetch(
      new Request(`${sandbox.baseUrl}${path}`, {
        method: route.method,
        headers: { 'X-Service-Secret-Key': sandbox.keys.primary, 'Content-Type': 'application/json' },
        ...(route.method === 'POST' ? { body: '{}' } : {}),
      }),
    );
    const parsed = parseRateLimitHeaders(response.headers);
    expect(parsed.source).toBe('x-ratelimit');
    const spent = parsed.limits.map((l) => l.name).sort();
    expect(spent).toEqual([...bucketsOf(route.method, path)].sort());
    expect(parsed.policies.map((p) => p.name).sort()).toEqual(spent);
  });

  it("the sandbox's Retry-After on an empty bucket is one the SDK reads, and no shorter than the wait", async () => {
    const sandbox = createSandbox({
      rateLimits: {
        default: { q: 2, w: 60 },
        uploads: { q: 5000, w: 86400 },
        downloads: { q: 100000, w: 86400 },
      },
    });
    const get = () =>
      sandbox.fetch(
        new Request(`${sandbox.baseUrl}/orders`, {
          headers: { 'X-Service-Secret-Key': sandbox.keys.primary },
        }),
      );
    await get();
    await get();
    const refused = await get();
    expect(refused.status).toBe(429);
    const ms = parseRetryAfter(refused.headers.get('retry-after'), sandbox.clock.now());
    expect(ms).toBeGreaterThanOrEqual(1000);
    const limit = parseRateLimitHeaders(refused.headers).limits.find((l) => l.name === 'default');
    expect(limit?.remaining).toBe(0);
  });

  it('references the sandbox makes match the SDK pattern of their prefix', () => {
    const sandbox = createSandbox();
    const seen = JSON.stringify(sandbox.seed).match(/\b[A-Z][a-z]+_[^"\\]+/g) ?? [];
    expect(seen.length).toBeGreaterThan(5);
    for (const value of seen) {
      const prefix = value.slice(0, value.indexOf('_'));
      expect(referencePattern(prefix as Parameters<typeof referencePattern>[0]).test(value)).toBe(true);
    }
  });
});
