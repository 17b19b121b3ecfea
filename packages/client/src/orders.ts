// createOrder: at most one order per customIdentifier (look up first, one flight per identifier, a settle
// window after unknown outcomes, claims shared through a store), and the pieces it is made of.
import type { PartnerPrintBaseClient } from './helpers.ts';
import type { OrderRequest } from './orders/content.ts';
import * as create from './orders/create.ts';

export { memoryOrderClaims, type OrderClaim, type OrderClaims, type RecordedOrder } from './orders/claims.ts';
export { contentKey, type OrderRead, type OrderRequest, sameOrderContent } from './orders/content.ts';
export type { CreateOrderInit, OrderResult } from './orders/create.ts';
export { IdentifierConflictError } from './orders/errors.ts';
export { AmbiguousOrderError, type OrderStep } from './orders/history.ts';

const isClient = (client: object): client is PartnerPrintBaseClient =>
  'get' in client &&
  'post' in client &&
  typeof client.get === 'function' &&
  typeof client.post === 'function';

function clientOf(client: object): PartnerPrintBaseClient {
  if (!isClient(client)) throw new TypeError('expected a client made by createClient');
  return client;
}

// The untyped forms the client object's methods are built from (helpers.ts types them); the typed ones
// are exported from orders/create.ts. The service validates the order itself.
export const createOrder = (client: object, order: object, init?: create.CreateOrderInit) =>
  create.createOrder(clientOf(client), order as OrderRequest, init);

export const lookupOrderReference = (
  client: object,
  customIdentifier: string,
  init?: create.CreateOrderInit,
) => create.lookupOrderReference(clientOf(client), customIdentifier, init);
