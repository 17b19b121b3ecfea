// A partner's graceful shutdown: `client.scheduler.close()` while calls wait in the rate-limit queue. Those
// calls were never sent, so they end at once with the close as an abort: not retried (a closed queue stays
// closed), not a network error "after 3 attempts", and for a POST that may not be repeated not an
// AmbiguousOutcomeError (nothing can have taken effect).
import { createSandbox } from '@partner-print/sandbox';
import { describe, expect, it } from 'vitest';
import {
  AbortedError,
  AmbiguousOutcomeError,
  type ClientEvent,
  createClient,
  PartnerPrintError,
} from '../src/index.ts';

/** A client whose scheduler admits two requests a minute, so the rest of a burst waits in its queue. */
function shuttingDown() {
  const retries: ClientEvent[] = [];
  let sent = 0;
  const sandbox = createSandbox({ rateLimits: { default: { q: 2, w: 60 } } });
  const client = createClient({
    secretKey: sandbox.keys.primary,
    baseUrl: sandbox.baseUrl,
    fetch: (request) => {
      sent++;
      return sandbox.fetch(request);
    },
    clock: sandbox.clock,
    hooks: { retry: (e) => retries.push(e) },
  });
  return { client, sandbox, retries, sent: () => sent };
}

/** Resolves once `n` requests wait in the client's rate-limit queue (on its events: no loop of sleeps). */
function queued(client: ReturnType<typeof createClient>, n: number): Promise<void> {
  const scheduler = client.scheduler!;
  return new Promise((resolve) => {
    const check = () => {
      if (scheduler.stats().queued < n) return;
      off();
      resolve();
    };
    const off = scheduler.on('queued', () => queueMicrotask(check));
    check();
  });
}

/** A combined order of one non-print line, as the sandbox seeds it. */
const combinedOrder = (sandbox: ReturnType<typeof createSandbox>) => ({
  storeReference: sandbox.seed.stores.combined,
  shippingKind: 'combined' as const,
  orderlines: [{ productReference: sandbox.seed.products.nonPrint, quantity: 1 }],
});

const settle = <T>(p: Promise<T>) =>
  p.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );

describe('client.scheduler.close() with calls in its queue', () => {
  it('ends the queued calls with an AbortedError holding the reason, sending and retrying nothing', async () => {
    const { client, retries, sent } = shuttingDown();
    const calls = Array.from({ length: 5 }, () => settle(client.get('/claimcategories')));
    // The first answers teach the scheduler the quota of 2; the rest queue behind the empty bucket.
    await queued(client, 3);
    const reason = new Error('shutting down');
    client.scheduler!.close(reason);
    const outcomes = await Promise.all(calls);
    // What the scheduler had sent was answered; what it still held was not sent at all.
    expect(outcomes.filter((o) => 'value' in o)).toHaveLength(sent());
    const failures = outcomes.flatMap((o) => ('error' in o ? [o.error] : []));
    expect(failures.length).toBeGreaterThanOrEqual(3);
    for (const error of failures) {
      expect(error).toBeInstanceOf(AbortedError);
      expect(error).toMatchObject({ code: 'aborted', operation: 'listClaimcategories', cause: reason });
    }
    expect(sent()).toBe(5 - failures.length);
    expect(retries).toEqual([]);
  });

  it('refuses a call made after the close at once, without a retry', async () => {
    const { client, retries, sent } = shuttingDown();
    client.scheduler!.close();
    const outcome = await settle(client.get('/claimcategories'));
    expect('error' in outcome && outcome.error).toBeInstanceOf(AbortedError);
    expect(sent()).toBe(0);
    expect(retries).toEqual([]);
  });

  it('a POST /orders it never sent is an AbortedError, not an AmbiguousOutcomeError', async () => {
    const { client, sandbox, sent } = shuttingDown();
    await client.get('/claimcategories');
    await client.get('/claimcategories');
    const order = settle(
      client.post('/orders', {
        body: { order: combinedOrder(sandbox) },
      } as never),
    );
    await queued(client, 1);
    client.scheduler!.close();
    const outcome = await order;
    const error = 'error' in outcome ? outcome.error : undefined;
    expect(error).toBeInstanceOf(AbortedError);
    expect(error).toBeInstanceOf(PartnerPrintError);
    expect((error as Error).message).not.toMatch(/may have taken effect/);
    expect(sent()).toBe(2);
  });

  it('createOrder after the close ends at once with the AbortedError: no settle window, no lookups', async () => {
    const { client, sandbox, sent } = shuttingDown();
    client.scheduler!.close();
    const outcome = await settle(
      client.createOrder({ ...combinedOrder(sandbox), customIdentifier: 'closed-1' } as never),
    );
    expect('error' in outcome && outcome.error).toBeInstanceOf(AbortedError);
    expect(sent()).toBe(0);
  });

  // The scheduler sends a copy of the client's Request when it must (a priority header to take off; a global
  // Request class another library replaced, as @hono/node-server does): such an attempt was sent all the same.
  it('a POST /orders the scheduler sent as a copy, then lost, is an AmbiguousOutcomeError, not "not sent"', async () => {
    const { client, sandbox, sent } = shuttingDown();
    sandbox.control.injectFault({ path: '/orders', method: 'POST', kind: 'drop-after' });
    const outcome = await settle(
      client.post('/orders', {
        body: { order: combinedOrder(sandbox) },
        headers: { 'x-ratelimit-priority': '1' },
      } as never),
    );
    expect(sent()).toBe(1);
    expect('error' in outcome && outcome.error).toBeInstanceOf(AmbiguousOutcomeError);
    // A close after it changes nothing for what was sent before.
    client.scheduler!.close();
  });
});
