// createOrder: at most one order per customIdentifier (look up first, one flight per identifier, a settle
// window after unknown outcomes, claims shared through a store), and the pieces it is made of: one module
// that the entries' public.ts re-exports from.
export { memoryOrderClaims, type OrderClaim, type OrderClaims, type RecordedOrder } from './orders/claims.ts';
export {
  type CombinedOrderRequest,
  contentKey,
  type DropshipOrderRequest,
  type OrderlineRequest,
  type OrderlineRequests,
  type OrderRead,
  type OrderRequest,
  type OrderRequestOf,
  type ShippingKind,
  sameOrderContent,
} from './orders/content.ts';
export {
  type CreateOrderInit,
  createOrder,
  lookupOrderReference,
  type OrderResult,
} from './orders/create.ts';
export { IdentifierConflictError } from './orders/errors.ts';
export { AmbiguousOrderError, type OrderStep } from './orders/history.ts';
