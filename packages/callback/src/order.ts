import type { PartnerPrintClient } from '@partner-print/client';
import type { OrderReferenceV2 } from './types.ts';

declare const client: PartnerPrintClient;
type GetOrder = typeof client.get<
  '/orders/{orderReference}',
  { params: { path: { orderReference: OrderReferenceV2 } } }
>;

/** The order as GET /orders/{orderReference} returns it, from the client's generated types. */
export type Order = NonNullable<Awaited<ReturnType<GetOrder>>>['order'];
