import { createClient } from '@partner-print/client';
import { expectTypeOf, test } from 'vitest';
import { createOrderUpdatedHandler } from './handler.ts';

test("@partner-print/client's client fits the handler, and the order is typed", () => {
  const client = createClient({ secretKey: 'sk', baseUrl: 'http://sandbox.localhost/v2' });
  createOrderUpdatedHandler({
    client,
    environment: 'test',
    onOrderUpdated(order) {
      expectTypeOf(order).not.toBeAny();
      expectTypeOf(order).toHaveProperty('reference');
    },
  });
});
