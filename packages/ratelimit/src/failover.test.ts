import { describe, expect, it } from 'vitest';
import { FailoverStore } from './failover.ts';
import { MemoryStore, type RateLimitStore } from './store.ts';

const T0 = 1_000_000;
const d = [{ name: 'default', quota: 10, windowSeconds: 10 }];

/** A shared store that answers from memory until told to fail. */
function flakyShared(): RateLimitStore & { fail: boolean } {
  const memory = new MemoryStore();
  const store = {
    fail: false,
    take: (...args: Parameters<RateLimitStore['take']>) =>
      store.fail ? Promise.reject(new Error('connection lost')) : memory.take(...args),
    observe: (...args: Parameters<RateLimitStore['observe']>) =>
      store.fail ? Promise.reject(new Error('connection lost')) : memory.observe(...args),
    snapshot: (...args: Parameters<RateLimitStore['snapshot']>) =>
      store.fail ? Promise.reject(new Error('connection lost')) : memory.snapshot(...args),
  };
  return store;
}

describe('FailoverStore', () => {
  it('taking over mid-flight, does not spend again what the shared store let go (it is still on the way)', async () => {
    const shared = flakyShared();
    const events: string[] = [];
    const store = new FailoverStore(shared, {
      timeoutMs: 1000,
      retryMs: 1000,
      onDown: () => events.push('down'),
      onUp: () => events.push('up'),
    });
    // The server says 3 are left; three requests go through the shared store and are on the way.
    const first = await store.take('org', d, T0);
    if (!first.ok) throw new Error('first take refused');
    await store.observe(
      'org',
      first.ticket,
      ['default'],
      [{ name: 'default', remaining: 3, resetSeconds: 0 }],
      T0,
    );
    for (let i = 0; i < 3; i++) expect((await store.take('org', d, T0)).ok).toBe(true);
    // The shared store fails: the local one takes over and knows those three spend the last tokens.
    shared.fail = true;
    expect(await store.take('org', d, T0)).toMatchObject({ ok: false });
    expect(events).toEqual(['down']);
    // One token later (1/s), one request may go.
    expect((await store.take('org', d, T0 + 1000)).ok).toBe(true);
  });
});
