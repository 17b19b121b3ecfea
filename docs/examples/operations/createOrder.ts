import type { Example } from '../harness.ts';

export const run: Example = async ({ client, world }) => {
  const storeReference = world.seed.stores.dropship;
  const productReference = world.seed.products.print;
  const imageReference = await world.image();
  // #region sample
  // createOrder never creates a duplicate: after a timeout or
  // dropped connection it finds the order by its
  // customIdentifier instead of posting again.
  const { order } = await client.createOrder({
    storeReference,
    shippingKind: 'dropship',
    customIdentifier: 'shop-order-10042',
    dropshipAddress: {
      firstname: 'Ada',
      lastname: 'Lovelace',
      streetname: 'Keizersgracht',
      housenumber: '1',
      zipcode: '1015 CJ',
      city: 'Amsterdam',
      countryCode: 'NL',
      email: 'ada@example.com',
    },
    orderlines: [{ productReference, imageReference, quantity: 2 }],
  });
  console.log(order.reference); // Order_…
  // #endregion
  return order.reference;
};
