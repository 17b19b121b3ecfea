import type { paths } from '@partner-print/openapi';
import createFetchClient from 'openapi-fetch';
import { createClient } from '@partner-print/client';
import { benchSandbox } from './fixture.ts';
const { sandbox, key, baseUrl, orderReference } = await benchSandbox();
const transport = (request: Request) => sandbox.fetch(request);
const params = { path: { orderReference } };
const bare = createFetchClient<paths>({ baseUrl, fetch: transport, headers: { 'X-Service-Secret-Key': key } });
const off = createClient({ secretKey: key, baseUrl, fetch: transport, rateLimit: false });
const on = createClient({ secretKey: key, baseUrl, fetch: transport });
const shared = new AbortController().signal;
const v: Record<string, () => Promise<unknown>> = {
  bare: () => bare.GET('/orders/{orderReference}', { params }),
  bareTimeout: () => bare.GET('/orders/{orderReference}', { params, signal: AbortSignal.timeout(30_000) }),
  bareCtl: () => bare.GET('/orders/{orderReference}', { params, signal: new AbortController().signal }),
  off: () => off.get('/orders/{orderReference}', { params }),
  offCtl: () => off.get('/orders/{orderReference}', { params, signal: new AbortController().signal }),
  offTimeout: () => off.get('/orders/{orderReference}', { params, signal: AbortSignal.timeout(30_000) }),
  on: () => on.get('/orders/{orderReference}', { params }),
  onCtl: () => on.get('/orders/{orderReference}', { params, signal: new AbortController().signal }),
  onTimeout: () => on.get('/orders/{orderReference}', { params, signal: AbortSignal.timeout(30_000) }),
};
const B = 500;
const res: Record<string, number[]> = {};
for (const n in v) { res[n] = []; for (let i = 0; i < 2000; i++) await v[n]!(); }
for (let r = 0; r < 30; r++) {
  for (const n of Object.keys(v).sort(() => Math.random() - 0.5)) {
    const f = v[n]!;
    const t0 = performance.now();
    for (let i = 0; i < B; i++) await f();
    res[n]!.push((performance.now() - t0) / B);
  }
}
const med = (a: number[]) => { const s = [...a].sort((x, y) => x - y); return s[s.length >> 1]!; };
// per-round ratio to bare
for (const n in res) {
  const ratios = res[n]!.map((x, i) => x / res.bare![i]!);
  console.log(n.padEnd(12), (med(res[n]!) * 1000).toFixed(0).padStart(6), 'us', med(ratios).toFixed(3));
}
sandbox.close();
process.exit(0);
