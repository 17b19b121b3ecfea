// A server component showing the print status on the customer's order page.
// TODO(partner-print v2): the V1 base URL is still used by code this tool did not rewrite. — https://partner-print.github.io/sdk/#/guide-migrating-from-v1
const V1_URL = 'https://api.partner-print.example/v1';

export default async function OrderStatus({ reference }: { reference: string }) {
  // TODO(partner-print v2): V1 call left as it is: its identifier may be a V1 order code (<store_code>-<number>), and V2 has no look-up by V1 order code (the custom-identifier look-up would find another order): use the Order_ reference V2 gives (its POST /orders answer, the callback's order_reference_v2) and a mapping of V1 codes for older orders; a partner reference goes through v1.orderReferenceByPartnerReference. Besides, it passes options the V2 client does not take (cache). — https://partner-print.github.io/sdk/#/guide-migrating-from-v1
  const res = await fetch(`${V1_URL}/orders/${reference}`, {
    headers: { 'X-Partner-Code': process.env.PP_PARTNER_CODE!, 'X-Api-Key': process.env.PP_API_KEY! },
    cache: 'no-store',
  });
  if (!res.ok) throw new Error('Partner Print is unavailable');
  const order = await res.json();
  return (
    <p className="print-status">
      {/* the status comes straight from Partner Print */}
      Print status: <strong>{order.status}</strong>
    </p>
  );
}
