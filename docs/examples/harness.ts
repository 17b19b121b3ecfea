/**
 * The world the operation samples in ./operations run in: a fresh in-process sandbox on its virtual clock, a
 * client wired to it, and helpers that create the resources a sample needs (an order, a shipment, a claim, a
 * render). Only the `// #region sample` parts of the sample files are shown on the docs site; this file and the
 * set-up lines around the regions are not.
 */
import { createClient, type PartnerPrintClient } from '@partner-print/client';
import { createSandbox, type Sandbox } from '@partner-print/sandbox';
import { samplePng } from './steps/sample-image.ts';

const HOUR = 3_600_000;

export const ADDRESS = {
  firstname: 'Ada',
  lastname: 'Lovelace',
  streetname: 'Keizersgracht',
  housenumber: '1',
  zipcode: '1015 CJ',
  city: 'Amsterdam',
  countryCode: 'NL',
  email: 'ada@example.com',
};

export interface World {
  sandbox: Sandbox;
  seed: Sandbox['seed'];
  /** Bytes of a small PNG. */
  png(seed?: number): Uint8Array<ArrayBuffer>;
  image(): Promise<string>;
  order(): Promise<{ orderReference: string; customIdentifier: string }>;
  shippedOrder(): Promise<{ orderReference: string; shipmentReference: string }>;
  /** A shipped order whose shipment is old enough (49 h) for a package-missing claim. */
  claimableShipment(): Promise<{ orderReference: string; shipmentReference: string }>;
  claim(): Promise<{ claimReference: string; orderReference: string; shipmentReference: string }>;
  render(): Promise<{ renderReference: string; compositionReference: string; imageReference: string }>;
  completedRender(): Promise<{ renderReference: string }>;
  productMedia(): Promise<{ productReference: string; filename: string }>;
}

export interface ExampleContext {
  client: PartnerPrintClient;
  world: World;
}

export type Example = (context: ExampleContext) => Promise<unknown>;

let counter = 0;

export function createExampleContext(): ExampleContext & { close(): void } {
  const sandbox = createSandbox({ jitter: 0 });
  const client = createClient({
    secretKey: sandbox.keys.primary,
    baseUrl: sandbox.baseUrl,
    fetch: (request) => sandbox.fetch(request),
    clock: sandbox.clock,
  });
  const seed = sandbox.seed;
  const world: World = {
    sandbox,
    seed,
    png: (n = 1) => samplePng(32, 32, n),
    image: () => client.uploadImage(samplePng(32, 32, ++counter)),
    async order() {
      const imageReference = await world.image();
      const customIdentifier = `docs-example-${++counter}`;
      const { order } = await client.createOrder({
        storeReference: seed.stores.dropship,
        shippingKind: 'dropship',
        customIdentifier,
        dropshipAddress: ADDRESS,
        orderlines: [{ productReference: seed.products.print, imageReference, quantity: 2 }],
      });
      return { orderReference: order.reference, customIdentifier };
    },
    async shippedOrder() {
      const { orderReference } = await world.order();
      const { shipmentReference } = sandbox.control.ship(orderReference);
      return { orderReference, shipmentReference };
    },
    async claimableShipment() {
      const shipped = await world.shippedOrder();
      await sandbox.control.advance(49 * HOUR);
      return shipped;
    },
    async claim() {
      const { orderReference, shipmentReference } = await world.claimableShipment();
      const { claim } = await client.post('/claim-package-missing', {
        body: { claim: { shipmentReference, evidenceReferences: [] } },
      });
      return { claimReference: claim.reference, orderReference, shipmentReference };
    },
    async render() {
      const imageReference = await world.image();
      const compositionReference = seed.compositions.available;
      const { render } = await client.post('/renders', {
        body: { render: { compositionReference, imageReference } },
      });
      return { renderReference: render.reference, compositionReference, imageReference };
    },
    async completedRender() {
      const { renderReference } = await world.render();
      sandbox.control.completeRender(renderReference);
      return { renderReference };
    },
    async productMedia() {
      for await (const product of client.paginate('/products')) {
        const media = (product as { media?: { filename?: string }[] }).media;
        const filename = media?.[0]?.filename;
        if (filename) return { productReference: product.reference, filename };
      }
      throw new Error('the sandbox seeds no product with media');
    },
  };
  return { client, world, close: () => sandbox.close() };
}
