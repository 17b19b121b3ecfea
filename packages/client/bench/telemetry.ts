// The cost of OpenTelemetry per call: `client.get()` (rate limiting off) with no SDK registered, with the
// telemetry option `false`, and with an SDK (tracer provider with a batch processor into an exporter that
// drops, meter provider with a reader), as ratios to bare openapi-fetch in the same rounds. With
// BENCH_BEFORE=<path to another checkout's packages/client/src/index.ts>, that client runs beside, for a
// before/after comparison in one process.

import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import type { paths } from '@partner-print/openapi';
import createFetchClient from 'openapi-fetch';
import { createClient } from '../src/index.ts';
import { type TelemetryScope, telemetryScope } from '../src/telemetry/option.ts';
import { stackTelemetry } from '../src/telemetry/stack.ts';
import { benchSandbox } from './fixture.ts';

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

const { sandbox, key, baseUrl, orderReference, recordAnswer } = await benchSandbox(false);
// BENCH_TRANSPORT=prepared answers every GET with the sandbox's recorded answer: a call is then mostly the
// client's and openapi-fetch's own work, so a difference between two clients is not lost in the sandbox's.
const prepared = process.env.BENCH_TRANSPORT === 'prepared' ? await recordAnswer() : undefined;
const transport = (request: Request) =>
  prepared && request.method === 'GET' ? Promise.resolve(prepared()) : sandbox.fetch(request);
const base = { secretKey: key, baseUrl, fetch: transport, rateLimit: false as const };
const params = { path: { orderReference } };
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
/**
 * `a` against `b` alone, in ABBA blocks of 100 calls, so a drift of the machine within a round falls on both
 * alike: the ratio per round is (A1 + A2) / (B1 + B2); its median and IQR over ROUNDS × 10 rounds.
 */
async function abba(a: Get, b: Get): Promise<string> {
  const block = async (get: Get) => {
    const t0 = performance.now();
    for (let i = 0; i < 100; i++) await get();
    return performance.now() - t0;
  };
  const paired: number[] = [];
  for (let round = 0; round < ROUNDS * 10; round++) {
    const [first, second] = round % 2 ? [a, b] : [b, a];
    const x1 = await block(first);
    const y1 = await block(second);
    const y2 = await block(second);
    const x2 = await block(first);
    paired.push(first === a ? (x1 + x2) / (y1 + y2) : (y1 + y2) / (x1 + x2));
  }
  return `median ${q(paired, 0.5).toFixed(3)} (IQR ${q(paired, 0.25).toFixed(3)}–${q(paired, 0.75).toFixed(3)}), ABBA blocks of 100 × ${ROUNDS * 10} rounds`;
}

const ratios = (name: string, anchor: string) => samples[name]!.map((v, i) => v / samples[anchor]![i]!);
console.log(
  `${ROUNDS} rounds × ${BLOCK} GET /orders/{ref} per variant, ${prepared ? "the sandbox's answer replayed" : 'in-process sandbox'}; ${exported} spans exported`,
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
// The code a call runs with no SDK registered, alone: the decision to make no span (meter, tracer and
// propagator looked at), the look-up in the transport beneath and in the relay to the rate-limit queue. Its
// cost per call against the same loop without it, then as a share of a `get()` measured above.
{
  const path = stackTelemetry({
    scope: telemetryScope(undefined, '@partner-print/client') as TelemetryScope,
    secret: key,
    templateOf: () => undefined,
  });
  const answer = Promise.resolve(new Response(null));
  const fetch0 = (_: Request) => answer;
  const send = path.transport(fetch0);
  const request = new Request(`${baseUrl}/orders/${orderReference}`);
  const contextOf = () => ({ operation: undefined, method: 'GET', path: '' });
  const N = 1_000_000;
  const loop = (withPath: boolean) => {
    const t0 = performance.now();
    let sink = 0;
    for (let i = 0; i < N; i++) {
      if (withPath) {
        if (path.call(request, contextOf)) sink++;
        path.relay(request, request);
        if (send(request) !== answer) sink++;
      } else if (fetch0(request) !== answer) sink++;
    }
    if (sink) throw new Error('a span was made with no SDK registered');
    return ((performance.now() - t0) * 1e6) / N;
  };
  const extra: number[] = [];
  for (let round = 0; round < 15; round++) extra.push(loop(true) - loop(false));
  const ns = q(extra, 0.5);
  const call = q(samples['get(), no SDK registered']!, 0.5) * 1000;
  console.log(
    `no-SDK path alone: ${ns.toFixed(0)} ns per call (IQR ${q(extra, 0.25).toFixed(0)}–${q(extra, 0.75).toFixed(0)}), ${((100 * ns) / call).toFixed(3)} % of a no-SDK get()`,
  );
}
// The ≤ 2 % question: the same build with and without the telemetry path (no SDK registered against
// `telemetry: false`), the only difference between the two clients being the code a call runs with no SDK.
console.log(
  `no SDK registered / telemetry: false: ${await abba(variants['get(), no SDK registered']!, variants['get(), telemetry: false']!)}`,
);
if (process.env.BENCH_BEFORE)
  console.log(
    `no SDK registered / before: ${await abba(variants['get(), no SDK registered']!, variants['get(), before OpenTelemetry']!)}`,
  );
const cost = samples['get(), SDK (spans + metrics)']!.map(
  (v, i) => v - samples['get(), no SDK registered']![i]!,
);
console.log(
  `SDK registered − none: ${q(cost, 0.5).toFixed(1)} µs per call (IQR ${q(cost, 0.25).toFixed(1)}–${q(cost, 0.75).toFixed(1)})`,
);
