// Per-request cost as counts, which the machine's load does not move: promises created (an async_hooks
// PROMISE counter) and bytes allocated (heap growth over a run with a young generation too large to be
// collected during it) per `get()`, against bare openapi-fetch, on a transport that answers with a prepared
// response (the sandbox's own answer to the same request, copied), so only the client's work is counted.
//
// Run: node --expose-gc --min-semi-space-size=256 --max-semi-space-size=256 --import tsx bench/cost.ts
import { createHook } from 'node:async_hooks';
import { PerformanceObserver } from 'node:perf_hooks';
import type { paths } from '@partner-print/openapi';
import { createScheduler } from '@partner-print/ratelimit';
import createFetchClient from 'openapi-fetch';
import { createClient } from '../src/index.ts';
import { preparedGet } from './fixture.ts';

const N = Number(process.env.COST_REQUESTS ?? 4000);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc --min-semi-space-size=256 --max-semi-space-size=256');

const { key, baseUrl, transport, params, path } = await preparedGet();
const auth = { 'X-Service-Secret-Key': key };

const bare = createFetchClient<paths>({ baseUrl, fetch: transport, headers: auth });
const scheduler = createScheduler({ fetch: transport });
const scheduled = createFetchClient<paths>({ baseUrl, fetch: scheduler.fetch, headers: auth });
const off = createClient({ secretKey: key, baseUrl, fetch: transport, rateLimit: false, telemetry: false });
const on = createClient({ secretKey: key, baseUrl, fetch: transport, telemetry: false });
const onTelemetry = createClient({ secretKey: key, baseUrl, fetch: transport });

const variants: Record<string, () => Promise<unknown>> = {
  'bare openapi-fetch': () => bare.GET(path, { params }),
  'scheduler alone on openapi-fetch': () => scheduled.GET(path, { params }),
  'client get(), no scheduler': () => off.get(path, { params }),
  'client get(), default scheduler': () => on.get(path, { params }),
  'client get(), default scheduler, telemetry on (no SDK)': () => onTelemetry.get(path, { params }),
};

let collections = 0;
new PerformanceObserver((list) => {
  collections += list.getEntries().length;
}).observe({ entryTypes: ['gc'] });
let promises = 0;
const hook = createHook({
  init(_id, type) {
    if (type === 'PROMISE') promises++;
  },
});

console.log(`Per request, ${N} sequential get() calls, prepared response\n`);
console.log(`${'variant'.padEnd(56)}${'promises'.padStart(10)}${'bytes'.padStart(10)}`);
for (const [name, run] of Object.entries(variants)) {
  for (let i = 0; i < 500; i++) await run(); // warm up: optimized code allocates less
  hook.enable();
  promises = 0;
  for (let i = 0; i < 100; i++) await run();
  hook.disable();
  const perPromise = promises / 100;
  gc();
  await new Promise((resolve) => setTimeout(resolve, 10)); // the observer hears of that collection now
  collections = 0;
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < N; i++) await run();
  const bytes = (process.memoryUsage().heapUsed - before) / N;
  await new Promise((resolve) => setTimeout(resolve, 10));
  // A collection during the run would hide what it freed: the figure is then not a count.
  const figure = collections ? 'GC ran' : Math.round(bytes).toString();
  console.log(`${name.padEnd(56)}${perPromise.toFixed(1).padStart(10)}${figure.padStart(10)}`);
}
