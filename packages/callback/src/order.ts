import type { PartnerPrintClient } from '@partner-print/client';

declare const client: PartnerPrintClient;
type GetOrder = typeof client.get<
  '/orders/{orderReference}',
  { params: { path: { orderReference: string } } }
>;

/** The order as GET /orders/{orderReference} returns it, from the client's generated types. */
export type Order = NonNullable<Awaited<ReturnType<GetOrder>>>['order'];
