// #region setup
import { createClient } from '@partner-print/client';

const client = createClient({
  secretKey: process.env.PARTNER_PRINT_SECRET_KEY ?? '',
  baseUrl: process.env.PARTNER_PRINT_BASE_URL ?? '',
});
// A shipment of one of your orders (order.shipments lists them).
const shipmentReference = process.env.SHIPMENT_REFERENCE as `Shipment_${string}`;
// #endregion

const { shipment } = await client.get('/shipments/{shipmentReference}', {
  params: { path: { shipmentReference } },
});
console.log(shipment.reference, shipment.tracking);
