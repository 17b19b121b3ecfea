import { describe, expect, it } from 'vitest';
import { json } from './contract.ts';
import { SECOND, setup } from './fixtures.ts';

describe('the sandbox on its virtual clock', () => {
  // On the old clock the 1 s sleep below moved time at once; and with a clock that jumps whenever the
  // program is idle, it would jump during the real latency, so the request would count seconds late.
  it('a latency fault holds virtual time: the request arrives at the virtual time it was sent', async () => {
    const s = setup();
    s.sandbox.control.injectFault({ path: '/items', kind: 'latency', latencyMs: 30 });
    const sent = s.sandbox.clock.now();
    let wokeAt: number | undefined;
    const sleeping = s.sandbox.clock.sleep(SECOND).then(() => {
      wokeAt = s.sandbox.clock.now();
    });
    const res = await s.a.get('/items');
    expect(res.status).toBe(200);
    expect(s.sandbox.clock.now()).toBe(sent);
    expect(wokeAt).toBeUndefined();
    await sleeping;
    expect(wokeAt).toBe(sent + SECOND);
  });

  it('control.advance wakes each sleeper at its own time, after the late commits due then have landed', async () => {
    const s = setup();
    s.sandbox.control.injectFault({ kind: 'late-commit', commitDelayMs: 2 * SECOND });
    await expect(
      s.a.post('/orders', {
        order: {
          storeReference: s.seed.stores.combined,
          shippingKind: 'combined',
          customIdentifier: 'in-turn',
          orderlines: [{ productReference: s.seed.products.nonPrint, quantity: 1 }],
        },
      }),
    ).rejects.toBeInstanceOf(TypeError);
    const start = s.sandbox.clock.now();
    const seen: Array<[number, number]> = [];
    const poller = (async () => {
      for (let i = 0; i < 3; i++) {
        await s.sandbox.clock.sleep(SECOND);
        const res = await s.a.get(
          '/utilities/lookup-order-reference-by-custom-identifier?customIdentifier=in-turn',
        );
        seen.push([s.sandbox.clock.now() - start, res.status]);
      }
    })();
    await s.sandbox.control.advance(3 * SECOND);
    await poller;
    expect(seen).toEqual([
      [SECOND, 404],
      [2 * SECOND, 200],
      [3 * SECOND, 200],
    ]);
    const found = await json<{ orderReference: string }>(
      await s.a.get('/utilities/lookup-order-reference-by-custom-identifier?customIdentifier=in-turn'),
    );
    expect(found.orderReference).toMatch(/^Order_/);
  });
});
