import { describe, expect, it } from 'vitest';
import { buildCallbackUrl } from './build-url.ts';
import { createOrderUpdatedHandler } from './handler.ts';
import type { OrderUpdatedNotification } from './types.ts';

const TOKEN = 's3cr3t-callback-token';
const url = buildCallbackUrl(`https://shop.example/hook?tenant=eu&token=${TOKEN}&partner_reference=x`, {
  environment: 'test',
  orderReference: 'ACME-1',
  orderReferenceV2: `Order_${'0'.repeat(25)}1`,
  storeCode: 'ACME',
});

describe('secretParams', () => {
  it('without it, the callback token reaches onError and onOrderUpdated', async () => {
    const surfaced: unknown[] = [];
    const handler = createOrderUpdatedHandler({
      client: { get: async () => Promise.reject(new Error('upstream down')) },
      environment: 'test',
      onOrderUpdated() {},
      onError: (_error, context) => surfaced.push(context),
    });
    expect((await handler(new Request(url))).status).toBe(500);
    expect(JSON.stringify(surfaced)).toContain(TOKEN);
  });

  it('redacts the values of the named parameters everywhere the handler surfaces a notification', async () => {
    const surfaced: unknown[] = [];
    const keep = (x: unknown) => surfaced.push(x);
    let fail = true;
    const handler = createOrderUpdatedHandler({
      client: {
        get: async () => {
          if (fail) throw new Error('upstream down');
          return { order: { reference: 'Order_x' } };
        },
      },
      environment: 'test',
      secretParams: ['token'],
      onOrderUpdated: (_order, notification) => keep(notification),
      onError: (_error, context) => keep(context),
      onWarnings: (warnings, notification) => keep({ warnings, notification }),
    });
    expect((await handler(new Request(url))).status).toBe(500);
    fail = false;
    expect((await handler(new Request(url))).status).toBe(204);
    const queued: OrderUpdatedNotification[] = [];
    const immediate = createOrderUpdatedHandler({
      client: { get: async () => ({ order: {} }) },
      environment: 'test',
      acknowledge: 'immediately',
      secretParams: ['token'],
      enqueue: (n) => queued.push(n),
    });
    expect((await immediate(new Request(url))).status).toBe(202);
    const all = JSON.stringify([surfaced, queued]);
    expect(surfaced.length).toBeGreaterThanOrEqual(3);
    expect(all).not.toContain(TOKEN);
    expect(queued[0]?.extra).toEqual([
      ['tenant', 'eu'],
      ['token', '[redacted]'],
    ]);
  });

  it('refuses secretParams that are not a list of names', () => {
    expect(() =>
      createOrderUpdatedHandler({
        client: { get: async () => ({ order: {} }) },
        environment: 'test',
        onOrderUpdated() {},
        // @ts-expect-error a string instead of a list
        secretParams: 'token',
      }),
    ).toThrow(TypeError);
  });
});
