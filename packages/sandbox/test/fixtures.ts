import { encode } from 'fast-png';
import { createSandbox, type Sandbox, type SandboxOptions } from '../src/index.ts';
import { api, json } from './contract.ts';

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** A small, valid PNG whose pixels depend on `seed` (different seeds give different bytes). */
export function pngBytes(seed = 1, width = 4, height = 4): Uint8Array {
  const data = new Uint8Array(width * height * 4).map((_, i) => (i * 7 + seed * 13) & 0xff);
  return encode({ width, height, data, channels: 4, depth: 8 });
}

/** A minimal baseline JPEG header (SOI, APP0, SOF0 with the given size, EOI): enough to read its size. */
export function jpegBytes(width = 640, height = 480, salt = 0): Uint8Array {
  return new Uint8Array([
    0xff,
    0xd8,
    0xff,
    0xe0,
    0x00,
    0x10,
    0x4a,
    0x46,
    0x49,
    0x46,
    0x00,
    0x01,
    0x01,
    0x00,
    0x00,
    0x01,
    0x00,
    0x01,
    0x00,
    salt & 0xff,
    0xff,
    0xc0,
    0x00,
    0x11,
    0x08,
    height >> 8,
    height & 0xff,
    width >> 8,
    width & 0xff,
    0x03,
    0x01,
    0x22,
    0x00,
    0x02,
    0x11,
    0x01,
    0x03,
    0x11,
    0x01,
    0xff,
    0xd9,
  ]);
}

export const GIF_BYTES = new TextEncoder().encode('GIF89a\x01\x00\x01\x00\x00\x00\x00;');

export function setup(options: SandboxOptions = {}) {
  const sandbox = createSandbox(options);
  const a = api(sandbox, 'primary');
  const b = api(sandbox, 'other');
  const seed = sandbox.seed;
  let imageSeed = 100;

  async function image(client = a): Promise<string> {
    const res = await client.upload('/images', pngBytes(imageSeed++));
    return (await json<{ image: { reference: string } }>(res)).image.reference;
  }
  async function evidence(client = a): Promise<string> {
    const res = await client.upload('/evidence', pngBytes(imageSeed++));
    return (await json<{ evidence: { reference: string } }>(res)).evidence.reference;
  }
  async function order(overrides: Record<string, unknown> = {}, client = a): Promise<string> {
    const s = client === b ? seed.otherOrganization : seed;
    const img = await image(client);
    const res = await client.post('/orders', {
      order: {
        storeReference: s.stores.combined,
        shippingKind: 'combined',
        orderlines: [
          { productReference: s.products.print, imageReference: img, quantity: 3 },
          { productReference: s.products.nonPrint, quantity: 2 },
        ],
        ...overrides,
      },
    });
    if (res.status !== 200) throw new Error(`order failed: ${res.status} ${await res.text()}`);
    return (await json<{ order: { reference: string } }>(res)).order.reference;
  }
  /** An order shipped in full; returns both references. */
  async function shipped(overrides: Record<string, unknown> = {}) {
    const orderReference = await order(overrides);
    const { shipmentReference } = sandbox.control.ship(orderReference);
    return { orderReference, shipmentReference };
  }
  return { sandbox, a, b, seed, image, evidence, order, shipped };
}

export type Setup = ReturnType<typeof setup>;
export type { Sandbox };
