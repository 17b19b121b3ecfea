import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { handlerWithoutWindow as createOrderUpdatedHandler } from '../test/no-window.ts';
import type { OrderFetcher } from './handler.ts';
import { ORDER_REFERENCE_V2_PATTERN } from './params.ts';

const VALID = `environment=test&order_reference=ACME-1&order_reference_v2=Order_${'B'.repeat(26)}&store_code=ACME`;
const NAMES = ['environment', 'order_reference', 'order_reference_v2', 'store_code', 'partner_code'];
const value = fc.oneof(
  fc.constantFrom('test', 'prod', 'ACME', 'ACME-1', `Order_${'A'.repeat(26)}`, `Order_${'A'.repeat(24)}%2F.`),
  fc.string({ unit: 'binary', maxLength: 40 }),
);

describe('createOrderUpdatedHandler (fuzz)', () => {
  it('answers every query without throwing, and only ever fetches valid V2 references', async () => {
    const fetched: string[] = [];
    const client: OrderFetcher<{ reference: string }> = {
      async get(_path, init) {
        fetched.push(init.params.path.orderReference);
        return { order: { reference: init.params.path.orderReference } };
      },
    };
    const handler = createOrderUpdatedHandler({ client, environment: 'test', onOrderUpdated() {} });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.oneof(fc.constantFrom(...NAMES), fc.string()), value), { maxLength: 8 }),
        fc.constantFrom('GET', 'GET', 'POST', 'DELETE'),
        fc.boolean(),
        async (pairs, method, startValid) => {
          const raw = [...(startValid ? [VALID] : []), ...pairs.map(([n, v]) => `${n}=${v}`)].join('&');
          const url = `https://partner.example/hook?${raw}`;
          let request: Request;
          try {
            request = new Request(url, { method });
          } catch {
            return; // not a URL a server could receive
          }
          const response = await handler(request);
          expect([204, 400, 405, 422]).toContain(response.status);
          if (method !== 'GET') expect(response.status).toBe(405);
        },
      ),
      { numRuns: 1500 },
    );
    expect(fetched.length).toBeGreaterThan(0);
    for (const reference of fetched) expect(reference).toMatch(ORDER_REFERENCE_V2_PATTERN);
  });
});
