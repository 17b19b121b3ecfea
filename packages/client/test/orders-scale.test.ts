// Issue 22's scenarios at 1,000 createOrder calls, 16 at once, against the in-process sandbox (virtual
// clock, so settle windows cost no real time). Each failure of the old behaviour is kept as a reproduction
// (`settleWindowMs: 0` trusts one "absent" lookup, as createOrder did before) next to the fixed default.
import { describe, expect, it } from 'vitest';
import { AmbiguousOutcomeError, type CreateOrderInit, createOrder, type OrderResult } from '../src/index.ts';
import { type OrderFaultOptions, orderSetup, storedIdentifiers } from './orders-faults.ts';
import { pool } from './orders-pool.ts';

const CALLS = 1000;
const AT_ONCE = 16;
const TIMEOUT = { timeout: 120_000 };

async function batch(
  options: OrderFaultOptions,
  init: CreateOrderInit = {},
  client: Parameters<typeof orderSetup>[1] = { retry: { attempts: 6 } },
) {
  const setup = orderSetup(options, client);
  const run = () => pool(CALLS, AT_ONCE, (i) => createOrder(setup.client, setup.order(`o-${i}`), init));
  const results = await run();
  const stored = await storedIdentifiers(setup.checker);
  return { ...setup, run, results, stored };
}

const duplicates = (stored: string[]) => stored.length - new Set(stored).size;
const errors = (results: Array<{ value: OrderResult } | { error: unknown }>) =>
  results.flatMap((r) => ('error' in r ? [r.error] : []));

describe(`${CALLS} createOrder calls, ${AT_ONCE} at once`, () => {
  it(
    'a commit landing 5 s after a dropped answer on 10% of POSTs: exactly 1,000 orders',
    TIMEOUT,
    async () => {
      const options: OrderFaultOptions = { fault: 'late-commit-drop', rate: 0.1, commitAfterMs: 5_000 };
      const { results, stored, stats } = await batch(options);
      expect(stats.faults).toBeGreaterThan(CALLS * 0.07);
      expect(errors(results)).toEqual([]);
      expect(stored).toHaveLength(CALLS);
      expect(duplicates(stored)).toBe(0);
    },
  );

  it(
    'reproduction: trusting one "absent" lookup (settleWindowMs: 0), the same faults duplicate orders',
    TIMEOUT,
    async () => {
      const options: OrderFaultOptions = {
        fault: 'late-commit-drop',
        rate: 0.1,
        commitAfterMs: 5_000,
      };
      const { stored, advance, checker } = await batch(options, { settleWindowMs: 0 });
      await advance(10_000); // the late commits land
      const after = await storedIdentifiers(checker);
      expect(duplicates(after)).toBeGreaterThan(CALLS * 0.05);
      expect(new Set(stored).size).toBe(CALLS);
    },
  );

  it(
    'a commit landing 10 s after the client gave up (timeout) on 10% of POSTs: exactly 1,000 orders',
    TIMEOUT,
    async () => {
      const options: OrderFaultOptions = {
        fault: 'late-commit-hang',
        rate: 0.1,
        commitAfterMs: 10_000,
      };
      const { results, stored, stats } = await batch(options, {}, { retry: { attempts: 6 }, timeoutMs: 20 });
      expect(stats.faults).toBeGreaterThan(CALLS * 0.07);
      expect(errors(results)).toEqual([]);
      expect(stored).toHaveLength(CALLS);
      expect(duplicates(stored)).toBe(0);
    },
  );

  it(
    'a lookup lagging commits by 500 ms, with 10% of answers lost after the commit: exactly 1,000',
    TIMEOUT,
    async () => {
      const options: OrderFaultOptions = { fault: 'drop-after', rate: 0.1, lookupLagMs: 500 };
      const { results, stored } = await batch(options);
      expect(errors(results)).toEqual([]);
      expect(stored).toHaveLength(CALLS);
      expect(duplicates(stored)).toBe(0);
    },
  );

  it(
    'reproduction: with the lagging lookup trusted once, lost answers become duplicates',
    TIMEOUT,
    async () => {
      const options: OrderFaultOptions = { fault: 'drop-after', rate: 0.1, lookupLagMs: 500 };
      const { stored } = await batch(options, { settleWindowMs: 0 });
      expect(duplicates(stored)).toBeGreaterThan(CALLS * 0.05);
    },
  );

  it(
    '500 three times before the commit for one order: "nothing was created", and a retry makes 1,000',
    TIMEOUT,
    async () => {
      const options: OrderFaultOptions = {
        plan: (order) => (order.customIdentifier === 'o-500' ? 'status-500' : undefined),
      };
      const setup = await batch(options, {}, {});
      const failed = errors(setup.results);
      expect(failed).toHaveLength(1);
      expect(failed[0]).not.toBeInstanceOf(AmbiguousOutcomeError);
      expect((failed[0] as Error).message).toContain('nothing was created');
      expect(setup.stats.posts).toBe(CALLS - 1 + 3);
      expect(setup.stored).toHaveLength(CALLS - 1);
      // The caller retries what was not created; the fault is gone.
      await expect(createOrder(setup.checker, setup.order('o-500'))).resolves.toMatchObject({
        created: true,
      });
      expect(await storedIdentifiers(setup.checker)).toHaveLength(CALLS);
    },
  );

  it(
    'drop-after, drop-before, 503 before and 502 after on 10% of POSTs: exactly 1,000',
    TIMEOUT,
    async () => {
      const kinds = ['drop-after', 'drop-before', 'status-503', 'status-502-after'] as const;
      const options: OrderFaultOptions = {
        plan: (_, n) => (n % 10 === 3 ? kinds[((n / 10) % 4) | 0] : undefined),
      };
      const { results, stored, stats } = await batch(options);
      expect(stats.faults).toBeGreaterThan(CALLS * 0.09);
      expect(errors(results)).toEqual([]);
      expect(stored).toHaveLength(CALLS);
      expect(duplicates(stored)).toBe(0);
    },
  );

  it('a plain repeat of the batch (and each call twice at once) creates 0 new orders', TIMEOUT, async () => {
    const setup = await batch({});
    expect(setup.results.every((r) => 'value' in r && r.value.created)).toBe(true);
    const again = await pool(CALLS, AT_ONCE, (i) =>
      Promise.all([
        createOrder(setup.client, setup.order(`o-${i}`)),
        createOrder(setup.checker, setup.order(`o-${i}`)),
      ]),
    );
    expect(again.every((r) => 'value' in r && r.value.every((v) => !v.created))).toBe(true);
    expect(await storedIdentifiers(setup.checker)).toHaveLength(CALLS);
    // Lookups per created order when nothing fails: one (the look-up-first).
    expect(setup.stats.posts).toBe(CALLS);
  });
});
