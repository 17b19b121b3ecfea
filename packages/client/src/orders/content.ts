import type * as spec from '@partner-print/openapi';

// The spec's order request types under their own names: a type error then says "required in type
// 'DropshipOrderRequest'" instead of printing the whole intersection. Each is the spec's type (a type test
// checks that they stay equal).

/** One orderline of an order request. */
export interface OrderlineRequest extends spec.OrderlineRequest {}
/** At least one orderline (the spec's `minItems: 1`): an empty array does not compile. */
export type OrderlineRequests = [OrderlineRequest, ...OrderlineRequest[]];
/** An order shipped to the customer at `dropshipAddress` (required: the service answers `missing_address`). */
export interface DropshipOrderRequest extends Omit<spec.DropshipOrderRequest, 'orderlines'> {
  orderlines: OrderlineRequests;
}
/** An order shipped to the store's combined address: no `dropshipAddress`, no shipping level. */
export interface CombinedOrderRequest extends Omit<spec.CombinedOrderRequest, 'orderlines'> {
  orderlines: OrderlineRequests;
}
/** The `order` object of POST /orders (dropship or combined). */
export type OrderRequest = DropshipOrderRequest | CombinedOrderRequest;
/** `dropship` or `combined`. */
export type ShippingKind = OrderRequest['shippingKind'];
/** The order request of one shipping kind. */
export type OrderRequestOf<K extends ShippingKind> = Extract<OrderRequest, { shippingKind: K }>;
/** An order as GET /orders/{orderReference} reads it back (beyond `reference` its fields are undocumented). */
export type OrderRead = spec.Order;
type Address = spec.Address;

type Open = { [key: string]: unknown };
const isOpen = (value: unknown): value is Open => typeof value === 'object' && value !== null;

// The read payload's fields beyond `reference` are not documented: a field it does not show is not a
// difference, and null, an empty string and absence are the same "not set".
const unset = (value: unknown) => value === undefined || value === null || value === '';
const sameValue = (sent: unknown, found: unknown) =>
  unset(sent) === unset(found) && (unset(sent) || sent === found);
const shown = (found: Open, key: string) => key in found;

function sameFields(sent: object, found: Open, keys: readonly string[]): boolean {
  const values: Open = { ...sent };
  return keys.every((key) => !shown(found, key) || sameValue(values[key], found[key]));
}

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
] as const satisfies readonly (keyof Address)[];
const LINE_FIELDS = [
  'productReference',
  'imageReference',
  'quantity',
] as const satisfies readonly (keyof OrderlineRequest)[];
const ORDER_FIELDS = [
  'storeReference',
  'shippingKind',
  'customIdentifier',
  'dropshipMinimalShippingLevel',
] as const;

function sameAddress(sent: Address | undefined, found: unknown): boolean {
  if (unset(found)) return sent === undefined || ADDRESS_FIELDS.every((key) => unset(sent[key]));
  return isOpen(found) && sameFields(sent ?? {}, found, ADDRESS_FIELDS);
}

/**
 * The lines read back match the lines sent one to one, in any order (the reference shows neither the read
 * payload nor the order of its lines). A line that shows fewer fields fits several lines sent, so each is
 * matched by augmenting paths (Kuhn's algorithm), not to the first that fits; a free line that fits is taken
 * first, so that equal lines (the usual case) cost one pass each.
 */
function sameOrderlines(sent: readonly OrderlineRequest[], found: unknown): boolean {
  if (!Array.isArray(found)) return true; // not shown
  // taker[j]: the line read matched to sent line j.
  const taker: (number | undefined)[] = [];
  const fits = (i: number, j: number) => isOpen(found[i]) && sameFields(sent[j] ?? {}, found[i], LINE_FIELDS);
  const place = (i: number, seen: boolean[]): boolean => {
    for (let j = 0; j < sent.length; j++)
      if (taker[j] === undefined && fits(i, j)) {
        taker[j] = i;
        return true;
      }
    for (let j = 0; j < sent.length; j++)
      if (!seen[j] && fits(i, j)) {
        seen[j] = true;
        if (place(taker[j] as number, seen)) {
          taker[j] = i;
          return true;
        }
      }
    return false;
  };
  return found.length === sent.length && found.every((_, i) => place(i, []));
}

/**
 * Whether the order read back (`found`) is the order `sent` would create: store, shipping kind, custom
 * identifier, address, shipping level and the orderlines (product, image, quantity; one to one, in any
 * order), as far as the read payload shows them. Fields the payload leaves out are not differences (the reference documents
 * only `reference` and `status`); so this can say "same" for an order that differs in a field the service
 * does not show, never "other" for one that matches.
 */
export function sameOrderContent(sent: OrderRequest, found: OrderRead): boolean {
  return (
    sameFields(sent, found, ORDER_FIELDS) &&
    (!shown(found, 'dropshipAddress') || sameAddress(sent.dropshipAddress, found.dropshipAddress)) &&
    sameOrderlines(sent.orderlines ?? [], found.orderlines)
  );
}

/** A stable text of an order request's content, for telling requests apart in one process. */
export function contentKey(order: OrderRequest): string {
  const sorted = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(sorted)
      : isOpen(value)
        ? Object.fromEntries(
            Object.keys(value)
              .filter((key) => !unset(value[key]))
              .sort()
              .map((key) => [key, sorted(value[key])]),
          )
        : value;
  return JSON.stringify(sorted(order));
}
