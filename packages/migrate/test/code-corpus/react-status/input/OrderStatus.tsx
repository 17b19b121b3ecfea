// A server component showing the print status on the customer's order page.
const V1_URL = 'https://api.partner-print.example/v1';

export default async function OrderStatus({ reference }: { reference: string }) {
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
