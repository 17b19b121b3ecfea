import type { paths } from '@partner-print/openapi';
import createFetchClient from 'openapi-fetch';
import { createClient } from '@partner-print/client';
import { benchSandbox } from './fixture.ts';
const ROUNDS = Number(process.env.R ?? 30);
const BLOCK = Number(process.env.B ?? 1000);
const { sandbox, key, baseUrl, orderReference } = await benchSandbox();
const transport = (request: Request) => sandbox.fetch(request);
const params = { path: { orderReference } };
const bare = createFetchClient<paths>({ baseUrl, fetch: transport, headers: { 'X-Service-Secret-Key': key } });
const off = createClient({ secretKey: key, baseUrl, fetch: transport, rateLimit: false });
const v: Record<string, () => Promise<unknown>> = {
  bare: () => bare.GET('/orders/{orderReference}', { params }),
  off: () => off.get('/orders/{orderReference}', { params }),
  GET: () => off.GET('/orders/{orderReference}', { params }),
};
const res: Record<string, number[]> = {};
for (const n in v) { res[n] = []; for (let i = 0; i < 3 * BLOCK; i++) await v[n]!(); }
for (let r = 0; r < ROUNDS; r++) {
  const order = Object.keys(v).sort(() => Math.random() - 0.5);
  for (const n of order) {
    const f = v[n]!;
    const t0 = performance.now();
    for (let i = 0; i < BLOCK; i++) await f();
    res[n]!.push((performance.now() - t0) / BLOCK);
  }
}
const med = (a: number[]) => { const s = [...a].sort((x, y) => x - y); return s[s.length >> 1]!; };
const q = (a: number[], p: number) => { const s = [...a].sort((x, y) => x - y); return s[Math.floor(p * (s.length - 1))]!; };
const out: string[] = [`R=${ROUNDS} B=${BLOCK}`];
for (const n of ['off', 'GET']) {
  const ratios = res[n]!.map((x, i) => x / res.bare![i]!);
  out.push(`${n} med ${med(ratios).toFixed(3)} iqr ${q(ratios, 0.25).toFixed(3)}-${q(ratios, 0.75).toFixed(3)} ratioOfMedians ${(med(res[n]!) / med(res.bare!)).toFixed(3)}`);
}
console.log(out.join(' | '));
sandbox.close();
process.exit(0);
