import type { Example } from '../harness.ts';

export const run: Example = async ({ client, world }) => {
  const { shipmentReference } = await world.shippedOrder();
  // #region sample
  const { shipment } = await client.get('/shipments/{shipmentReference}', {
    params: { path: { shipmentReference } },
  });
  console.log(shipment.reference, shipment.tracking);
  // #endregion
  return shipment;
};
