// The storm of a legacy callback burst, on a manual clock: a test of the handler's defaults and a benchmark
// row (counts, not times).
import { buildCallbackUrl } from '../src/build-url.ts';
import { createOrderUpdatedHandler, type OrderFetcher } from '../src/handler.ts';

const orderOf = (k: number) => `Order_${'0'.repeat(24)}${String(k).padStart(2, '0')}`;

/** Time that moves only when the test says so; sleeps end when it passes them. */
function manualClock() {
  let now = 0;
  const sleepers: Array<{ at: number; wake: () => void }> = [];
  return {
    now: () => now,
    sleep: (ms: number) => new Promise<void>((wake) => sleepers.push({ at: now + ms, wake })),
    async advance(ms: number) {
      const target = now + ms;
      for (;;) {
        const due = sleepers.filter((s) => s.at <= target).sort((a, b) => a.at - b.at)[0];
        if (!due) break;
        now = Math.max(now, due.at);
        sleepers.splice(sleepers.indexOf(due), 1);
        due.wake();
        for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
      }
      now = target;
      for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
    },
  };
}

/**
 * The storm of the issue: 1,000 notifications for 10 orders arriving over 2 s (one every 2 ms, orders in
 * turn), each fetch taking 50 ms, with the handler's default options.
 */
export async function stormWithDefaults(windowMs?: number) {
  const clock = manualClock();
  const fetchStarts = new Map<string, number[]>();
  const client: OrderFetcher<{ reference: string }> = {
    get: async (_path, init) => {
      const ref = init.params.path.orderReference;
      fetchStarts.set(ref, [...(fetchStarts.get(ref) ?? []), clock.now()]);
      await clock.sleep(50);
      return { order: { reference: ref } };
    },
  };
  const handler = createOrderUpdatedHandler({
    client,
    environment: 'test',
    clock,
    onOrderUpdated() {},
    ...(windowMs !== undefined && { windowMs }),
  });
  const answers: Array<Promise<{ ref: string; arrived: number; answered: number; status: number }>> = [];
  for (let i = 0; i < 1000; i++) {
    const ref = orderOf(i % 10);
    const arrived = clock.now();
    const url = buildCallbackUrl(`https://partner.example/hook?n=${i}`, {
      environment: 'test',
      orderReference: `ACME-${i % 10}`,
      orderReferenceV2: ref,
      storeCode: 'ACME',
    });
    answers.push(
      handler(new Request(url)).then((r) => ({ ref, arrived, answered: clock.now(), status: r.status })),
    );
    await clock.advance(2);
  }
  await clock.advance(10_000);
  return { fetchStarts, answers: await Promise.all(answers) };
}

/** Fetches per order (the most and the total) and the longest wait for an answer. */
export async function stormFigures(windowMs?: number) {
  const { fetchStarts, answers } = await stormWithDefaults(windowMs);
  const counts = [...fetchStarts.values()].map((s) => s.length);
  return {
    maxPerOrder: Math.max(...counts),
    total: counts.reduce((a, b) => a + b, 0),
    maxAnswerMs: Math.max(...answers.map((a) => a.answered - a.arrived)),
  };
}
