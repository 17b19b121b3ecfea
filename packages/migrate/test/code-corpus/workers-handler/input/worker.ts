export interface Env {
  PP_PARTNER_CODE: string;
  PP_API_KEY: string;
}

const V1_BASE = 'https://api.partner-print.example/v1';

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname !== '/partner-print/callback') return new Response('not found', { status: 404 });
    const reference = url.searchParams.get('order_reference');
    const res = await fetch(`${V1_BASE}/orders/${reference}`, {
      headers: { 'X-Partner-Code': env.PP_PARTNER_CODE, 'X-Api-Key': env.PP_API_KEY },
    });
    const order = (await res.json()) as { status: string };
    return Response.json({ reference, status: order.status });
  },
};
