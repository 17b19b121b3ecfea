import type { Hono } from 'hono';
import type { Ctx, Env, SandboxContext } from '../context.ts';
import { fail, isObject, iso, notFound, paginate, readWrapped } from '../http.ts';
import {
  MAX_ADDRESS_FIELD_LENGTH,
  MAX_CUSTOM_IDENTIFIER_LENGTH,
  MAX_ORDERLINES,
  MAX_QUANTITY,
} from '../limits.ts';
import type { Address, OrderlineRecord, OrderRecord, ShipmentRecord } from '../model.ts';
import { isReference } from '../random.ts';
import type { Organization } from '../state.ts';

const ADDRESS_FIELDS = [
  'company',
  'firstname',
  'lastname',
  'streetname',
  'housenumber',
  'housenumberAddition',
  'additionalInfo',
  'state',
  'zipcode',
  'city',
  'countryCode',
  'phonenumber',
  'email',
] as const;

const JSON_HEADERS = { 'Content-Type': 'application/json' };

/** Marks an order changed, so its cached body is rebuilt. */
export function touch(order: OrderRecord, now: number) {
  order.updated = now;
  order.version = (order.version ?? 0) + 1;
}

export const SHIPPING_LEVELS = ['tracked'] as const;

/** Quantity of each orderline shipped so far. */
export function shippedQuantities(org: Organization, order: OrderRecord): number[] {
  const shipped = order.orderlines.map(() => 0);
  for (const ref of order.shipmentReferences) {
    const shipment = org.shipments.get(ref);
    for (const line of shipment?.lines ?? []) shipped[line.orderlineIndex]! += line.quantity;
  }
  return shipped;
}

export function orderStatus(org: Organization, order: OrderRecord, shipped = shippedQuantities(org, order)) {
  const total = order.orderlines.reduce((n, l) => n + l.quantity, 0);
  const sent = shipped.reduce((n, q) => n + q, 0);
  const code = sent === 0 ? 'received' : sent < total ? 'partially_shipped' : 'shipped';
  return { code, replaced: order.replaced, updated: iso(order.updated) };
}

export function orderBody(org: Organization, order: OrderRecord) {
  const store = org.stores.get(order.storeReference)!;
  const shipped = shippedQuantities(org, order);
  return {
    reference: order.reference,
    storeReference: order.storeReference,
    shippingKind: order.shippingKind,
    customIdentifier: order.customIdentifier,
    status: orderStatus(org, order, shipped),
    created: iso(order.created),
    dropshipAddress: order.dropshipAddress,
    dropshipMinimalShippingLevel: order.dropshipMinimalShippingLevel,
    shippingAddress: order.shippingKind === 'combined' ? store.combinedAddress : order.dropshipAddress,
    orderlines: order.orderlines.map((line, i) => ({
      orderlineIndex: i,
      productReference: line.productReference,
      imageReference: line.imageReference,
      quantity: line.quantity,
      shippedQuantity: shipped[i]!,
      legacySku: line.legacySku,
    })),
    shipments: order.shipmentReferences.map((reference) => ({ reference })),
    legacyCode: order.legacyOrderCode,
    legacyOrderCode: order.legacyOrderCode,
  };
}

export function shipmentBody(shipment: ShipmentRecord, order: OrderRecord) {
  return {
    reference: shipment.reference,
    orderReference: shipment.orderReference,
    shipped: iso(shipment.shipped),
    tracking: { carrier: shipment.carrier, code: shipment.trackingCode, url: shipment.trackingUrl },
    shipmentlines: shipment.lines.map((l) => ({
      orderlineIndex: l.orderlineIndex,
      productReference: order.orderlines[l.orderlineIndex]!.productReference,
      quantity: l.quantity,
    })),
    legacyOrderCode: order.legacyOrderCode,
  };
}

type Invalid = { status: 400 | 422; code: string; message: string };
const invalid = (code: string, message: string, status: 400 | 422 = 422): Invalid => ({
  status,
  code,
  message,
});

function validateAddress(value: unknown): Address | Invalid {
  if (!isObject(value)) return invalid('missing_address', 'A dropship order needs a dropshipAddress');
  const address: Address = {};
  for (const [key, v] of Object.entries(value)) {
    if (!(ADDRESS_FIELDS as readonly string[]).includes(key)) {
      return invalid('invalid_address', `dropshipAddress.${key} is not an address field`);
    }
    if (v === null || v === undefined) continue;
    if (typeof v !== 'string') return invalid('invalid_address', `dropshipAddress.${key} must be a string`);
    if (v.length > MAX_ADDRESS_FIELD_LENGTH) {
      return invalid(
        'invalid_address',
        `dropshipAddress.${key} holds ${v.length} characters; at most ${MAX_ADDRESS_FIELD_LENGTH}`,
      );
    }
    address[key as keyof Address] = v;
  }
  if (Object.keys(address).length === 0) return invalid('missing_address', 'The dropshipAddress is empty');
  if (address.countryCode !== undefined && !/^[A-Z]{2}$/.test(address.countryCode)) {
    return invalid('invalid_address', 'dropshipAddress.countryCode must be a two-letter country code');
  }
  return address;
}

function validateOrder(org: Organization, input: Record<string, unknown>, now: number) {
  const { storeReference, shippingKind, customIdentifier, orderlines } = input;
  if (typeof storeReference !== 'string' || !isReference(storeReference, 'Store')) {
    return invalid('invalid_reference', 'order.storeReference must be a Store_ reference');
  }
  const store = org.stores.get(storeReference);
  if (!store) return invalid('unknown_store', 'No store with this reference exists in your organization');
  if (shippingKind !== 'dropship' && shippingKind !== 'combined') {
    return invalid('invalid_shipping_kind', 'order.shippingKind must be "dropship" or "combined"');
  }
  if (customIdentifier !== undefined && customIdentifier !== null) {
    if (
      typeof customIdentifier !== 'string' ||
      customIdentifier.length === 0 ||
      customIdentifier.length > MAX_CUSTOM_IDENTIFIER_LENGTH
    ) {
      return invalid(
        'invalid_custom_identifier',
        'order.customIdentifier must be a string of 1 to 255 characters',
      );
    }
  }
  let address: Address | null = null;
  let level: string | null = null;
  if (shippingKind === 'dropship') {
    const a = validateAddress(input.dropshipAddress);
    if ('status' in a) return a;
    address = a;
    const l = input.dropshipMinimalShippingLevel;
    if (l !== undefined && l !== null) {
      if (typeof l !== 'string' || !(SHIPPING_LEVELS as readonly string[]).includes(l)) {
        return invalid(
          'invalid_shipping_level',
          `order.dropshipMinimalShippingLevel must be one of: ${SHIPPING_LEVELS.join(', ')}`,
        );
      }
      level = l;
    }
  } else if (!store.combinedAddress) {
    return invalid('missing_combined_address', 'This store has no combined address; use a dropship order');
  }
  if (!Array.isArray(orderlines) || orderlines.length === 0) {
    return invalid('missing_orderlines', 'order.orderlines must hold at least one orderline');
  }
  if (orderlines.length > MAX_ORDERLINES) {
    return invalid(
      'too_many_orderlines',
      `order.orderlines holds ${orderlines.length} orderlines; the sandbox accepts at most ${MAX_ORDERLINES}`,
    );
  }
  const lines: OrderlineRecord[] = [];
  for (const [i, line] of orderlines.entries()) {
    if (!isObject(line)) return invalid('invalid_request', `order.orderlines[${i}] must be an object`);
    const { productReference, imageReference, quantity } = line;
    if (typeof productReference !== 'string' || !isReference(productReference, 'Product')) {
      return invalid(
        'invalid_reference',
        `order.orderlines[${i}].productReference must be a Product_ reference`,
      );
    }
    const product = org.products.get(productReference);
    if (!product)
      return invalid('unknown_product', `order.orderlines[${i}]: no such product in your organization`);
    if (!product.available) {
      return invalid(
        'product_unavailable',
        `order.orderlines[${i}]: the product is deprecated and no longer available`,
      );
    }
    if (
      typeof quantity !== 'number' ||
      !Number.isInteger(quantity) ||
      quantity < 1 ||
      quantity > MAX_QUANTITY
    ) {
      return invalid(
        'invalid_quantity',
        `order.orderlines[${i}].quantity must be an integer from 1 to ${MAX_QUANTITY}`,
      );
    }
    const hasImage = imageReference !== undefined && imageReference !== null;
    if (product.print && !hasImage) {
      return invalid(
        'missing_image_reference',
        `order.orderlines[${i}]: a print product needs an imageReference`,
      );
    }
    if (!product.print && hasImage) {
      return invalid(
        'unexpected_image_reference',
        `order.orderlines[${i}]: a non-print product must not have an imageReference`,
      );
    }
    if (hasImage) {
      if (typeof imageReference !== 'string' || !isReference(imageReference, 'Image')) {
        return invalid(
          'invalid_reference',
          `order.orderlines[${i}].imageReference must be an Image_ reference`,
        );
      }
      const image = org.uploads.get(imageReference);
      if (image?.kind !== 'image') {
        return invalid('unknown_image', `order.orderlines[${i}]: no such image in your organization`);
      }
    }
    lines.push({
      productReference,
      imageReference: hasImage ? (imageReference as string) : null,
      quantity,
      legacySku: product.legacyItemSKU,
    });
  }
  void now;
  return {
    store,
    shippingKind: shippingKind as 'dropship' | 'combined',
    customIdentifier: (customIdentifier as string | undefined) ?? null,
    address,
    level,
    lines,
  };
}

type ValidOrder = Exclude<ReturnType<typeof validateOrder>, Invalid>;

/** Stores a validated order at the current sandbox time and announces it. */
function commitOrder(ctx: SandboxContext, org: Organization, v: ValidOrder): OrderRecord {
  const now = ctx.clock.now();
  const order: OrderRecord = {
    reference: ctx.world.refs.next('Order'),
    seq: ++ctx.world.seq,
    storeReference: v.store.reference,
    shippingKind: v.shippingKind,
    customIdentifier: v.customIdentifier,
    dropshipAddress: v.address,
    dropshipMinimalShippingLevel: v.level,
    orderlines: v.lines,
    legacyOrderCode: `${v.store.code}-${v.store.nextOrderNumber++}`,
    created: now,
    updated: now,
    shipmentReferences: [],
    replaced: false,
  };
  org.orders.set(order.reference, order);
  org.orderList.push(order);
  if (order.customIdentifier !== null) {
    const same = org.ordersByCustomIdentifier.get(order.customIdentifier);
    if (same) same.push(order);
    else org.ordersByCustomIdentifier.set(order.customIdentifier, [order]);
  }
  ctx.orderChanged(org, order, 'created');
  return order;
}

/** The newest order with this identifier that the lookup sees: one committed at least `lagMs` ago. */
function lookupByCustomIdentifier(org: Organization, id: string, now: number, lagMs: number) {
  const orders = org.ordersByCustomIdentifier.get(id) ?? [];
  for (let i = orders.length - 1; i >= 0; i--) if (now - orders[i]!.created >= lagMs) return orders[i];
  return undefined;
}

export function orderRoutes(app: Hono<Env>, ctx: SandboxContext) {
  app.post('/orders', async (c) => {
    const input = await readWrapped(c, 'order');
    if (input instanceof Response) return input;
    const org = c.get('org');
    const now = ctx.clock.now();
    const v = validateOrder(org, input, now);
    if ('status' in v) return fail(c, v.status, v.code, v.message);
    const late = c.env?.lateCommit;
    if (!late) return c.json({ order: { reference: commitOrder(ctx, org, v).reference } }, 200);
    const committed = ctx.lateCommits.schedule(now + late.delayMs, () => commitOrder(ctx, org, v));
    late.onScheduled(committed);
    return c.json({ order: { reference: (await committed).reference } }, 200);
  });

  // The hot path of the load test: the serialized body is kept until the order changes.
  app.get('/orders/:orderReference', (c) => {
    const org = c.get('org');
    const order = org.orders.get(c.req.param('orderReference'));
    if (!order) return notFound(c, 'order');
    const version = order.version ?? 0;
    if (order.cache?.version !== version) {
      order.cache = { version, json: JSON.stringify({ order: orderBody(org, order) }) };
    }
    return c.body(order.cache.json, 200, JSON_HEADERS);
  });

  app.get('/orders', (c) => {
    const org = c.get('org');
    const newestFirst = org.orderList.slice().reverse();
    const result = paginate(c, 'orders', newestFirst, (o) => o.seq, ctx.pageSize);
    if (result instanceof Response) return result;
    return c.json({ orders: result.page.map((o) => orderBody(org, o)), nextCursor: result.nextCursor });
  });

  app.get('/shipments/:shipmentReference', (c) => {
    const org = c.get('org');
    const shipment = org.shipments.get(c.req.param('shipmentReference'));
    if (!shipment) return notFound(c, 'shipment');
    return c.json({ shipment: shipmentBody(shipment, org.orders.get(shipment.orderReference)!) });
  });

  app.get('/utilities/lookup-order-reference-by-custom-identifier', (c: Ctx) => {
    const id = c.req.query('customIdentifier');
    if (!id) return fail(c, 400, 'missing_parameter', 'Query parameter customIdentifier is required');
    const order = lookupByCustomIdentifier(c.get('org'), id, ctx.clock.now(), ctx.faults.lookupLag());
    if (!order)
      return fail(c, 404, 'not_found', 'No order with this custom identifier exists in your organization');
    return c.json({ orderReference: order.reference });
  });
}
