import { AsyncLocalStorage } from 'node:async_hooks';
import { createSandbox } from '@partner-print/sandbox';
import { describe, expect, it } from 'vitest';
import { createClient, type RateLimitOption } from '../src/index.ts';

const storage = new AsyncLocalStorage<string>();

/** Six concurrent calls, each in its own context; what the transport and the hooks saw, per call. */
async function sixCalls(rateLimit: RateLimitOption | undefined, sandboxOptions = {}) {
  const sandbox = createSandbox({ jitter: 0, ...sandboxOptions });
  const fetched: Array<[string | undefined, string]> = [];
  const hooked: Array<[string | undefined, string]> = [];
  const tag = (url: string) => new URL(url).searchParams.get('cursor') ?? '';
  const client = createClient({
    secretKey: sandbox.keys.primary,
    baseUrl: sandbox.baseUrl,
    clock: sandbox.clock,
    ...(rateLimit !== undefined && { rateLimit }),
    fetch: (request) => {
      fetched.push([storage.getStore(), tag(request.url)]);
      return sandbox.fetch(request);
    },
    hooks: { request: (e) => hooked.push([storage.getStore(), tag(e.url)]) },
  });
  await Promise.all(
    Array.from({ length: 6 }, (_, i) =>
      storage.run(`call-${i}`, () =>
        // The cursor only labels the request; the sandbox refuses it, and the call's error is expected.
        client.GET('/claimcategories', { params: { query: { cursor: `call-${i}` } } }),
      ),
    ),
  );
  return { fetched, hooked };
}

describe('the caller’s async context', () => {
  it('each queued request is fetched in the context of the call that queued it (default scheduler)', async () => {
    const { fetched, hooked } = await sixCalls(undefined);
    expect(fetched).toHaveLength(6);
    for (const [context, label] of fetched) expect(context).toBe(label);
    for (const [context, label] of hooked) expect(context).toBe(label);
  });

  it('and so when the requests wait for tokens and are retried after a 429', async () => {
    const { fetched } = await sixCalls({ concurrency: 1 }, { rateLimits: { default: { q: 2, w: 1 } } });
    expect(fetched.length).toBeGreaterThanOrEqual(6);
    for (const [context, label] of fetched) expect(context).toBe(label);
  });

  it('without the scheduler too', async () => {
    const { fetched } = await sixCalls(false);
    for (const [context, label] of fetched) expect(context).toBe(label);
  });
});
