import axios from 'axios';
import type { FastifyInstance } from 'fastify';

const BASE = 'https://api.partner-print.example/v1';
const headers = { 'X-Partner-Code': process.env.PARTNER_CODE ?? '', 'X-Api-Key': process.env.API_KEY ?? '' };

export default async function routes(app: FastifyInstance) {
  app.get('/callbacks/partner-print', async (request, reply) => {
    const { order_reference, custom_reference } = request.query as Record<string, string>;
    const { data } = await axios.get(`${BASE}/orders/${order_reference}`, { headers });
    app.log.info({ custom_reference, status: data.status }, 'print order updated');
    return reply.code(204).send();
  });
}
