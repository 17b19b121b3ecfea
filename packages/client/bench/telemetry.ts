// The cost of OpenTelemetry per call: `client.get()` (rate limiting off) with no SDK registered, with the
// telemetry option `false`, and with an SDK (tracer provider with a batch processor into an exporter that
// drops, meter provider with a reader), as ratios to bare openapi-fetch in the same rounds. With
// BENCH_BEFORE=<path to another checkout's packages/client/src/index.ts>, that client runs beside, for a
// before/after comparison in one process.

import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import type { paths } from '@partner-print/openapi';
import { createSandbox } from '@partner-print/sandbox';
import createFetchClient from 'openapi-fetch';
import { createClient } from '../src/index.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);
const BLOCK = Number(process.env.BENCH_BLOCK ?? 1000);

class Reader extends MetricReader {
  protected onForceFlush = () => Promise.resolve();
  protected onShutdown = () => Promise.resolve();
}
let exported = 0;
const tracerProvider = new TracerProvider({
  spanProcessors: [
    new BatchSpanProcessor({
      exporter: {
        export: (spans, done) => {
          exported += spans.length;
          done({ code: 0 });
        },
        shutdown: () => Promise.resolve(),
      },
    }),
  ],
});
const meterProvider = new MeterProvider({ readers: [new Reader()] });

const sandbox = createSandbox({ rateLimits: false });
const key = sandbox.keys.primary;
const { baseUrl } = sandbox;
const transport = (request: Request) => sandbox.fetch(request);
const base = { secretKey: key, baseUrl, fetch: transport, rateLimit: false as const };
const made = await createClient(base).createOrder({
  storeReference: sandbox.seed.stores.combined,
  shippingKind: 'combined',
  orderlines: [{ productReference: sandbox.seed.products.nonPrint, quantity: 1 }],
});
const params = { path: { orderReference: made.order.reference } };
const bare = createFetchClient<paths>({
  baseUrl,
  fetch: transport,
  headers: { 'X-Service-Secret-Key': key },
});
const none = createClient(base);
const off = createClient({ ...base, telemetry: false });
const sdk = createClient({ ...base, telemetry: { tracerProvider, meterProvider } });

type Get = () => Promise<unknown>;
const variants: Record<string, Get> = {
  'bare openapi-fetch': () => bare.GET('/orders/{orderReference}', { params }),
  'get(), no SDK registered': () => none.get('/orders/{orderReference}', { params }),
  'get(), telemetry: false': () => off.get('/orders/{orderReference}', { params }),
  'get(), SDK (spans + metrics)': () => sdk.get('/orders/{orderReference}', { params }),
};
if (process.env.BENCH_BEFORE) {
  const before = (await import(process.env.BENCH_BEFORE)) as { createClient: typeof createClient };
  const old = before.createClient(base);
  variants['get(), before OpenTelemetry'] = () => old.get('/orders/{orderReference}', { params });
}
const names = Object.keys(variants);
const samples: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
for (const name of names) for (let i = 0; i < 3 * BLOCK; i++) await variants[name]!();
for (let round = 0; round < ROUNDS; round++) {
  const order = [...names].sort(() => Math.random() - 0.5);
  for (const name of order) {
    const t0 = performance.now();
    for (let i = 0; i < BLOCK; i++) await variants[name]!();
    samples[name]!.push(((performance.now() - t0) * 1000) / BLOCK);
  }
}
await tracerProvider.forceFlush();
const q = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.round((s.length - 1) * p)]!;
};
const ratios = (name: string, anchor: string) => samples[name]!.map((v, i) => v / samples[anchor]![i]!);
console.log(
  `${ROUNDS} rounds × ${BLOCK} GET /orders/{ref} per variant, in-process sandbox; ${exported} spans exported`,
);
console.log(
  `${'variant'.padEnd(32)}${'µs'.padStart(8)}${'× openapi-fetch'.padStart(17)}${'IQR'.padStart(16)}`,
);
for (const name of names) {
  const r = ratios(name, 'bare openapi-fetch');
  console.log(
    `${name.padEnd(32)}${q(samples[name]!, 0.5).toFixed(1).padStart(8)}${q(r, 0.5).toFixed(3).padStart(17)}${`${q(r, 0.25).toFixed(3)}–${q(r, 0.75).toFixed(3)}`.padStart(16)}`,
  );
}
if (process.env.BENCH_BEFORE) {
  const r = ratios('get(), no SDK registered', 'get(), before OpenTelemetry');
  console.log(
    `\nno SDK registered / before: median ${q(r, 0.5).toFixed(3)} (IQR ${q(r, 0.25).toFixed(3)}–${q(r, 0.75).toFixed(3)})`,
  );
}
const cost = samples['get(), SDK (spans + metrics)']!.map(
  (v, i) => v - samples['get(), no SDK registered']![i]!,
);
console.log(
  `SDK registered − none: ${q(cost, 0.5).toFixed(1)} µs per call (IQR ${q(cost, 0.25).toFixed(1)}–${q(cost, 0.75).toFixed(1)})`,
);
