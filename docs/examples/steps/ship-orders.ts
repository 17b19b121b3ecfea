import type { DemoStep } from './context.ts';

const HOURS = 3_600_000;

export const shipOrders: DemoStep = {
  title: 'Ship both orders (sandbox control API) and let two days pass',
  async run({ client, sandbox, log, state }) {
    state.dropshipShipment = sandbox.control.ship(state.dropshipOrder!, {
      carrier: 'PostNL',
      trackingCode: '3SDEMO1001',
    }).shipmentReference;
    state.combinedShipment = sandbox.control.ship(state.combinedOrder!).shipmentReference;
    const { shipment } = (await client.get('/shipments/{shipmentReference}', {
      params: { path: { shipmentReference: state.dropshipShipment } },
    })) as { shipment: Record<string, unknown> };
    log(
      `${state.dropshipOrder} shipped as ${state.dropshipShipment}: ${JSON.stringify(shipment.tracking ?? shipment)}`,
    );
    log(`${state.combinedOrder} shipped as ${state.combinedShipment}`);
    await sandbox.control.advance(49 * HOURS); // package-missing claims need a shipment at least 48 hours old
    log(`sandbox time is now ${new Date(sandbox.control.now()).toISOString()}`);
  },
};
