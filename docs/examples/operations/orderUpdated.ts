// #region sample
import { createOrderUpdatedHandler } from '@partner-print/callback';
// #endregion
import type { Example } from '../harness.ts';

export const run: Example = async ({ client, world }) => {
  const { orderReference, customIdentifier } = await world.order();
  const saved: string[] = [];
  const db = { orders: { upsert: async (reference: string, _order: unknown) => void saved.push(reference) } };
  // #region sample
  // The endpoint behind the store's "API Callback URL": a
  // web-standard (Request) => Promise<Response>, also usable
  // as a Workers-style `{ fetch }` module.
  const handle = createOrderUpdatedHandler({
    client,
    environment: 'test', // the other environment gets a 4xx, no fetch
    async onOrderUpdated(order) {
      // `order` is the current order, fetched by
      // `order_reference_v2`: the notification only says that
      // it changed. Store it idempotently; the same order can
      // be notified several times.
      await db.orders.upsert(order.reference, order);
    },
  });
  // #endregion
  // Imported here, not at the top, so the shown imports stay the sample's own.
  const { buildCallbackUrl } = await import('@partner-print/callback');
  const storeCode = world.seed.storeCodes.dropship;
  const url = buildCallbackUrl('http://127.0.0.1:8080/partner-print/callback?token=abc', {
    environment: 'test',
    orderReference: `${storeCode}-1`,
    orderReferenceV2: orderReference,
    storeCode,
    customReference: customIdentifier,
  });
  const response = await handle(new Request(url));
  return { status: response.status, saved };
};
