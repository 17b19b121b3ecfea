import { benchSandbox } from './fixture.ts';
const { sandbox, key, baseUrl, orderReference } = await benchSandbox();
const url = `${baseUrl}/orders/${orderReference}`;
const mk: Record<string, () => Request> = {
  bare: () => new Request(url, { headers: { 'X-Service-Secret-Key': key } }),
  ua: () => { const r = new Request(url, { headers: { 'X-Service-Secret-Key': key }, redirect: 'manual' }); r.headers.set('User-Agent', 'partner-print-sdk/0.0.0 node/20'); return r; },
  uaOnlyHeader: () => new Request(url, { headers: { 'X-Service-Secret-Key': key, 'User-Agent': 'partner-print-sdk/0.0.0 node/20' } }),
};
const names = Object.keys(mk);
const res: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
for (let round = 0; round < 40; round++) {
  for (const n of names.sort(() => Math.random() - 0.5)) {
    const t0 = performance.now();
    for (let i = 0; i < 500; i++) { const r = await sandbox.fetch(mk[n]()); await r.json(); }
    res[n].push(performance.now() - t0);
  }
}
const med = (a: number[]) => a.sort((x, y) => x - y)[a.length >> 1];
for (const n of names) console.log(n, (med(res[n]) / 500 * 1000).toFixed(1), 'µs', (med(res[n]) / med(res.bare)).toFixed(3));
sandbox.close();
