import type { Hono } from 'hono';
import type { Ctx, Env, SandboxContext } from '../context.ts';
import {
  commitOrder,
  commitOrderLater,
  lookupByCustomIdentifier,
  orderStatusCode,
  shippedQuantities,
  validateOrder,
} from '../domain/orders.ts';
import { fail, iso, notFound, paginate, readWrapped, refuse } from '../http.ts';
import type { OrderRecord, ShipmentRecord } from '../model.ts';
import type { Organization } from '../state.ts';

const JSON_HEADERS = { 'Content-Type': 'application/json' };

function orderBody(org: Organization, order: OrderRecord) {
  const store = org.stores.get(order.storeReference)!;
  const shipped = shippedQuantities(org, order);
  return {
    reference: order.reference,
    storeReference: order.storeReference,
    shippingKind: order.shippingKind,
    customIdentifier: order.customIdentifier,
    status: { code: orderStatusCode(order, shipped), replaced: order.replaced, updated: iso(order.updated) },
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

function shipmentBody(shipment: ShipmentRecord, order: OrderRecord) {
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

async function createOrder(c: Ctx, ctx: SandboxContext): Promise<Response> {
  const input = await readWrapped(c, 'order');
  if (input instanceof Response) return input;
  const org = c.get('org');
  const valid = validateOrder(org, input);
  if (valid.kind === 'refused') return refuse(c, valid);
  const late = c.env?.lateCommit;
  if (!late) return c.json({ order: { reference: commitOrder(ctx, org, valid.value).reference } }, 200);
  const committed = commitOrderLater(ctx, org, valid.value, late.delayMs);
  late.onScheduled(committed);
  return c.json({ order: { reference: (await committed).reference } }, 200);
}

export function orderRoutes(app: Hono<Env>, ctx: SandboxContext): void {
  app.post('/orders', (c) => createOrder(c, ctx));

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

  app.get('/utilities/lookup-order-reference-by-custom-identifier', (c) => {
    const id = c.req.query('customIdentifier');
    if (!id) return fail(c, 400, 'missing_parameter', 'Query parameter customIdentifier is required');
    const order = lookupByCustomIdentifier(ctx, c.get('org'), id);
    if (!order)
      return fail(c, 404, 'not_found', 'No order with this custom identifier exists in your organization');
    return c.json({ orderReference: order.reference });
  });
}
