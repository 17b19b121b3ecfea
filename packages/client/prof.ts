import type { paths } from '@partner-print/openapi';
import createFetchClient from 'openapi-fetch';
import { createClient } from './src/index.ts';

const body = '{"order":{"reference":"Order_x"}}';
const transport = async (_r: Request) =>
  new Response(body, { headers: { 'content-type': 'application/json' } });
const key = 'sk_test_x';
const baseUrl = 'https://api.example.com/v2';
const params = { path: { orderReference: 'Order_x' } };
const bare = createFetchClient<paths>({
  baseUrl,
  fetch: transport,
  headers: { 'X-Service-Secret-Key': key },
});
const mk = (o: object) => createClient({ secretKey: key, baseUrl, fetch: transport, rateLimit: false, ...o });
const v: Record<string, () => Promise<unknown>> = {
  raw: async () =>
    (
      await transport(new Request(baseUrl + '/orders/Order_x', { headers: { 'X-Service-Secret-Key': key } }))
    ).json(),
  bare: () => bare.GET('/orders/{orderReference}', { params }),
  noTimeout: () => mk0.GET('/orders/{orderReference}', { params }),
  noTimeoutGet: () => mk0.get('/orders/{orderReference}', { params }),
  withTimeout: () => mk1.GET('/orders/{orderReference}', { params }),
  sched: () => mk2.GET('/orders/{orderReference}', { params }),
};
const mk0 = mk({ timeoutMs: 0 });
const mk1 = mk({});
const mk2 = createClient({ secretKey: key, baseUrl, fetch: transport });
const N = 3000;
for (let r = 0; r < 4; r++)
  for (const [n, f] of Object.entries(v)) {
    const c = process.cpuUsage();
    for (let i = 0; i < N; i++) await f();
    const d = process.cpuUsage(c);
    if (r > 1) console.log(n.padEnd(14), ((d.user + d.system) / N).toFixed(1), 'µs cpu');
  }
