import type { SandboxContext } from '../context.ts';
import {
  MAX_ADDRESS_FIELD_LENGTH,
  MAX_CUSTOM_IDENTIFIER_LENGTH,
  MAX_ORDERLINES,
  MAX_QUANTITY,
} from '../limits.ts';
import type {
  Address,
  OrderlineRecord,
  OrderRecord,
  ProductRecord,
  ShipmentlineRecord,
  ShipmentRecord,
  StoreRecord,
} from '../model.ts';
import { isReference } from '../random.ts';
import type { Organization } from '../state.ts';
import { characters, isRecord } from './input.ts';
import { ok, type Result, refused } from './result.ts';

export const ADDRESS_FIELDS = [
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

export const SHIPPING_LEVELS = ['tracked'] as const;

export interface ValidOrder {
  store: StoreRecord;
  shippingKind: 'dropship' | 'combined';
  customIdentifier: string | null;
  address: Address | null;
  level: string | null;
  lines: OrderlineRecord[];
}

/** Marks an order changed, so its cached body is rebuilt. */
export function touch(order: OrderRecord, now: number): void {
  order.updated = now;
  order.version = (order.version ?? 0) + 1;
}

/** Quantity of each orderline shipped so far. */
export function shippedQuantities(org: Organization, order: OrderRecord): number[] {
  const shipped = order.orderlines.map(() => 0);
  for (const ref of order.shipmentReferences) {
    const shipment = org.shipments.get(ref);
    for (const line of shipment?.lines ?? []) shipped[line.orderlineIndex]! += line.quantity;
  }
  return shipped;
}

export function orderStatusCode(
  order: OrderRecord,
  shipped: number[],
): 'received' | 'partially_shipped' | 'shipped' {
  const total = order.orderlines.reduce((n, l) => n + l.quantity, 0);
  const sent = shipped.reduce((n, q) => n + q, 0);
  return sent === 0 ? 'received' : sent < total ? 'partially_shipped' : 'shipped';
}

function checkAddressField(key: string, value: unknown): Result<string> {
  if (!(ADDRESS_FIELDS as readonly string[]).includes(key)) {
    return refused('invalid_address', `dropshipAddress.${key} is not an address field`);
  }
  // The spec types every address field as a string: null is refused like any other non-string.
  if (typeof value !== 'string') return refused('invalid_address', `dropshipAddress.${key} must be a string`);
  const length = characters(value);
  if (length > MAX_ADDRESS_FIELD_LENGTH) {
    return refused(
      'invalid_address',
      `dropshipAddress.${key} holds ${length} characters; at most ${MAX_ADDRESS_FIELD_LENGTH}`,
    );
  }
  return ok(value);
}

function checkAddress(value: unknown): Result<Address> {
  if (value === undefined) return refused('missing_address', 'A dropship order needs a dropshipAddress');
  // A wrongly typed address (null, a string, an array) is there but malformed, not missing.
  if (!isRecord(value))
    return refused('invalid_address', 'dropshipAddress must be an object of address fields');
  const address: Record<string, string> = {};
  for (const [key, v] of Object.entries(value)) {
    const field = checkAddressField(key, v);
    if (field.kind === 'refused') return field;
    address[key] = field.value;
  }
  if (Object.keys(address).length === 0) return refused('missing_address', 'The dropshipAddress is empty');
  if (address.countryCode !== undefined && !/^[A-Z]{2}$/.test(address.countryCode)) {
    return refused('invalid_address', 'dropshipAddress.countryCode must be a two-letter country code');
  }
  return ok(address);
}

function checkShippingLevel(value: unknown): Result<string | null> {
  if (value === undefined) return ok(null);
  if (typeof value !== 'string' || !(SHIPPING_LEVELS as readonly string[]).includes(value)) {
    return refused(
      'invalid_shipping_level',
      `order.dropshipMinimalShippingLevel must be one of: ${SHIPPING_LEVELS.join(', ')}`,
    );
  }
  return ok(value);
}

/** Where the order goes: a dropship address (and level), or the store's combined address. */
function checkShipping(
  store: StoreRecord,
  shippingKind: 'dropship' | 'combined',
  input: Record<string, unknown>,
): Result<{ address: Address | null; level: string | null }> {
  if (shippingKind === 'combined') {
    // The spec forbids both fields on a combined order (present at all, even null).
    if ('dropshipAddress' in input) {
      return refused(
        'unexpected_address',
        "A combined order ships to the store's address; leave dropshipAddress out",
      );
    }
    if ('dropshipMinimalShippingLevel' in input) {
      return refused(
        'unexpected_shipping_level',
        'dropshipMinimalShippingLevel applies to dropship orders only; leave it out of a combined order',
      );
    }
    if (!store.combinedAddress) {
      return refused('missing_combined_address', 'This store has no combined address; use a dropship order');
    }
    return ok({ address: null, level: null });
  }
  const address = checkAddress(input.dropshipAddress);
  if (address.kind === 'refused') return address;
  const level = checkShippingLevel(input.dropshipMinimalShippingLevel);
  if (level.kind === 'refused') return level;
  return ok({ address: address.value, level: level.value });
}

function checkImage(
  org: Organization,
  product: ProductRecord,
  image: unknown,
  i: number,
): Result<string | null> {
  // Present means present: null is not "no image" (the spec types imageReference as a string).
  const hasImage = image !== undefined;
  if (product.print && !hasImage) {
    return refused(
      'missing_image_reference',
      `order.orderlines[${i}]: a print product needs an imageReference`,
    );
  }
  if (!product.print && hasImage) {
    return refused(
      'unexpected_image_reference',
      `order.orderlines[${i}]: a non-print product must not have an imageReference`,
    );
  }
  if (!hasImage) return ok(null);
  if (!isReference(image, 'Image')) {
    return refused('invalid_reference', `order.orderlines[${i}].imageReference must be an Image_ reference`);
  }
  if (org.uploads.get(image)?.kind !== 'image') {
    return refused('unknown_image', `order.orderlines[${i}]: no such image in your organization`);
  }
  return ok(image);
}

function checkOrderline(org: Organization, line: unknown, i: number): Result<OrderlineRecord> {
  if (!isRecord(line)) return refused('invalid_request', `order.orderlines[${i}] must be an object`);
  const { productReference, imageReference, quantity } = line;
  if (!isReference(productReference, 'Product')) {
    return refused(
      'invalid_reference',
      `order.orderlines[${i}].productReference must be a Product_ reference`,
    );
  }
  const product = org.products.get(productReference);
  if (!product)
    return refused('unknown_product', `order.orderlines[${i}]: no such product in your organization`);
  if (!product.available) {
    return refused(
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
    return refused(
      'invalid_quantity',
      `order.orderlines[${i}].quantity must be an integer from 1 to ${MAX_QUANTITY}`,
    );
  }
  if (line.legacySku !== undefined && typeof line.legacySku !== 'string') {
    return refused('invalid_request', `order.orderlines[${i}].legacySku must be a string`);
  }
  const image = checkImage(org, product, imageReference, i);
  if (image.kind === 'refused') return image;
  return ok({ productReference, imageReference: image.value, quantity, legacySku: product.legacyItemSKU });
}

function checkOrderlines(org: Organization, orderlines: unknown): Result<OrderlineRecord[]> {
  if (orderlines !== undefined && !Array.isArray(orderlines)) {
    return refused('invalid_request', 'order.orderlines must be an array of orderlines');
  }
  if (!orderlines || orderlines.length === 0) {
    return refused('missing_orderlines', 'order.orderlines must hold at least one orderline');
  }
  if (orderlines.length > MAX_ORDERLINES) {
    return refused(
      'too_many_orderlines',
      `order.orderlines holds ${orderlines.length} orderlines; the sandbox accepts at most ${MAX_ORDERLINES}`,
    );
  }
  const lines: OrderlineRecord[] = [];
  for (const [i, line] of orderlines.entries()) {
    const checked = checkOrderline(org, line, i);
    if (checked.kind === 'refused') return checked;
    lines.push(checked.value);
  }
  return ok(lines);
}

function checkCustomIdentifier(value: unknown): Result<string | null> {
  if (value === undefined) return ok(null);
  if (typeof value !== 'string' || value.length === 0 || characters(value) > MAX_CUSTOM_IDENTIFIER_LENGTH) {
    return refused(
      'invalid_custom_identifier',
      `order.customIdentifier must be a string of 1 to ${MAX_CUSTOM_IDENTIFIER_LENGTH} characters`,
    );
  }
  return ok(value);
}

/** The rules of POST /orders, in the order they are reported (the first failing one wins). */
export function validateOrder(org: Organization, input: Record<string, unknown>): Result<ValidOrder> {
  const { storeReference, shippingKind } = input;
  if (!isReference(storeReference, 'Store')) {
    return refused('invalid_reference', 'order.storeReference must be a Store_ reference');
  }
  const store = org.stores.get(storeReference);
  if (!store) return refused('unknown_store', 'No store with this reference exists in your organization');
  if (shippingKind !== 'dropship' && shippingKind !== 'combined') {
    return refused('invalid_shipping_kind', 'order.shippingKind must be "dropship" or "combined"');
  }
  const customIdentifier = checkCustomIdentifier(input.customIdentifier);
  if (customIdentifier.kind === 'refused') return customIdentifier;
  const shipping = checkShipping(store, shippingKind, input);
  if (shipping.kind === 'refused') return shipping;
  const lines = checkOrderlines(org, input.orderlines);
  if (lines.kind === 'refused') return lines;
  return ok({
    store,
    shippingKind,
    customIdentifier: customIdentifier.value,
    ...shipping.value,
    lines: lines.value,
  });
}

/** Stores a validated order at the current sandbox time and announces it. */
export function commitOrder(ctx: SandboxContext, org: Organization, v: ValidOrder): OrderRecord {
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

/** Commits a validated order `delayMs` of sandbox time from now (the late-commit fault). */
export function commitOrderLater(
  ctx: SandboxContext,
  org: Organization,
  v: ValidOrder,
  delayMs: number,
): Promise<OrderRecord> {
  return ctx.lateCommits.schedule(ctx.clock.now() + delayMs, () => commitOrder(ctx, org, v));
}

/**
 * The newest order with this identifier that the lookup sees: one committed at least the lookup's lag
 * (the lookup-lag fault; 0 without it) ago.
 */
export function lookupByCustomIdentifier(
  ctx: SandboxContext,
  org: Organization,
  id: string,
): OrderRecord | undefined {
  const now = ctx.clock.now();
  const lagMs = ctx.faults.lookupLag();
  const orders = org.ordersByCustomIdentifier.get(id) ?? [];
  for (let i = orders.length - 1; i >= 0; i--) if (now - orders[i]!.created >= lagMs) return orders[i];
  return undefined;
}

export interface ShipInput {
  /** Lines to ship; every unshipped quantity when omitted. orderlineIndex counts from 0. */
  lines?: ShipmentlineRecord[];
  carrier?: string;
  trackingCode?: string;
  trackingUrl?: string;
}

/** The lines a shipment takes: the given ones (checked against what is left), or everything left. */
function shipmentLines(
  org: Organization,
  order: OrderRecord,
  given?: ShipmentlineRecord[],
): Result<ShipmentlineRecord[]> {
  const shipped = shippedQuantities(org, order);
  const lines =
    given ??
    order.orderlines
      .map((l, i) => ({ orderlineIndex: i, quantity: l.quantity - shipped[i]! }))
      .filter((l) => l.quantity > 0);
  if (lines.length === 0) return refused('nothing_to_ship', 'Every orderline is already shipped', 409);
  // Counted per orderline as the lines are read, so one orderline given twice cannot ship more than ordered.
  const shipping = new Map<number, number>();
  for (const l of lines) {
    const line = order.orderlines[l.orderlineIndex];
    if (!line) return refused('invalid_orderline', `No orderline ${l.orderlineIndex}`);
    const before = shipping.get(l.orderlineIndex) ?? 0;
    const left = line.quantity - shipped[l.orderlineIndex]!;
    if (!Number.isInteger(l.quantity) || l.quantity < 1 || before + l.quantity > left) {
      return refused('invalid_quantity', `Orderline ${l.orderlineIndex}: cannot ship ${l.quantity}`);
    }
    shipping.set(l.orderlineIndex, before + l.quantity);
  }
  return ok(lines.map((l) => ({ orderlineIndex: l.orderlineIndex, quantity: l.quantity })));
}

/** Ships all or part of an order (the warehouse's act); announces the change. */
export function shipOrder(
  ctx: SandboxContext,
  org: Organization,
  order: OrderRecord,
  input: ShipInput,
): Result<ShipmentRecord> {
  const lines = shipmentLines(org, order, input.lines);
  if (lines.kind === 'refused') return lines;
  const now = ctx.clock.now();
  const reference = ctx.world.refs.next('Shipment');
  const code = input.trackingCode ?? `3S${reference.slice(-12).toUpperCase()}`;
  const shipment: ShipmentRecord = {
    reference,
    orderReference: order.reference,
    shipped: now,
    carrier: input.carrier ?? 'PostNL',
    trackingCode: code,
    trackingUrl: input.trackingUrl ?? `https://tracking.example.com/${code}`,
    lines: lines.value,
  };
  org.shipments.set(reference, shipment);
  order.shipmentReferences.push(reference);
  touch(order, now);
  ctx.orderChanged(org, order, 'shipped');
  return ok(shipment);
}

/** A replacement awarded on a claim marks the order replaced (once) and announces it. */
export function markReplaced(ctx: SandboxContext, org: Organization, order: OrderRecord): void {
  if (order.replaced) return;
  order.replaced = true;
  touch(order, ctx.clock.now());
  ctx.orderChanged(org, order, 'replaced');
}
