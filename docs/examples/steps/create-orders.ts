import type { PartnerPrintError } from '@partner-print/client';
import type { DemoStep } from './context.ts';

export const createOrders: DemoStep = {
  title: 'Create a dropship order and a combined order',
  async run({ client, seed, log, state }) {
    const dropship = await client.createOrder({
      storeReference: seed.stores.dropship,
      shippingKind: 'dropship',
      customIdentifier: 'demo-1001',
      dropshipAddress: {
        firstname: 'Ada',
        lastname: 'Lovelace',
        streetname: 'Keizersgracht',
        housenumber: '123',
        zipcode: '1015 CJ',
        city: 'Amsterdam',
        countryCode: 'NL',
        email: 'ada@example.com',
      },
      dropshipMinimalShippingLevel: 'tracked',
      orderlines: [{ productReference: seed.products.print, imageReference: state.image!, quantity: 2 }],
    });
    state.dropshipOrder = dropship.order.reference;
    log(`dropship order (customIdentifier demo-1001) → ${state.dropshipOrder}`);

    const combined = await client.createOrder({
      storeReference: seed.stores.combined,
      shippingKind: 'combined',
      customIdentifier: 'demo-1002',
      orderlines: [
        { productReference: seed.products.print, imageReference: state.image!, quantity: 1 },
        { productReference: seed.products.nonPrint, quantity: 1 }, // a screen protector: no image
      ],
    });
    state.combinedOrder = combined.order.reference;
    log(`combined order (customIdentifier demo-1002, to the store's own address) → ${state.combinedOrder}`);

    const refused = (await client
      .createOrder({
        storeReference: seed.stores.combined,
        shippingKind: 'combined',
        orderlines: [{ productReference: seed.products.print, quantity: 1 }],
      })
      .catch((e: unknown) => e)) as PartnerPrintError;
    log(`a print orderline without an image is refused: ${refused.name} ${refused.code}`);
  },
};
