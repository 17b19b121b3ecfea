// Renders the picture of docs/guides/observability.md: a real run of the client against the sandbox, its
// spans kept by the OpenTelemetry SDK's in-memory exporter, drawn as a waterfall and screenshot by headless
// Chromium.  tsx tools/docs/trace-waterfall.ts [out.png]
import { chromium } from 'playwright-core';
import { createClient } from '../../packages/client/src/index.ts';
// The SDK comes through the client's test helpers: the OpenTelemetry packages are the client's dev dependencies.
import { AsyncLocalStorageContextManager, context, otel, SpanKind } from '../../packages/client/test/otel.ts';
import { createSandbox } from '../../packages/sandbox/src/index.ts';

const out =
  process.argv[2] ?? new URL('../../docs/guides/images/observability-trace.png', import.meta.url).pathname;
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
const sdk = otel();
const sandbox = createSandbox();
// Network time the in-process sandbox does not have, and a 503 for the retry to show.
sandbox.control.injectFault({ path: '/**', kind: 'latency', latencyMs: 25 });
const client = createClient({
  secretKey: sandbox.keys.primary,
  baseUrl: sandbox.baseUrl,
  fetch: (request, init) => sandbox.fetch(init ? new Request(request, init) : request),
  retry: { attempts: 3, baseDelayMs: 60, maxDelayMs: 60 },
  // One request at a time: the three concurrent reads wait in the rate-limit queue, which the trace shows.
  rateLimit: { concurrency: 1 },
  telemetry: { tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider },
});
const tracer = sdk.tracerProvider.getTracer('shop');
await tracer.startActiveSpan('POST /checkout', { kind: SpanKind.SERVER }, async (root) => {
  const { order } = await client.createOrder({
    storeReference: sandbox.seed.stores.combined,
    shippingKind: 'combined',
    customIdentifier: 'shop-order-42',
    orderlines: [{ productReference: sandbox.seed.products.nonPrint, quantity: 1 }],
  });
  sandbox.control.injectFault({ path: '/orders/*', kind: 'status', status: 503, count: 1 });
  await client.get('/orders/{orderReference}', { params: { path: { orderReference: order.reference } } });
  await Promise.all([1, 2, 3].map(() => client.get('/claimcategories')));
  root.end();
});
const spans = await sdk.spans();
if (process.env.DUMP)
  for (const s of spans)
    console.log(
      s.name,
      s.status,
      JSON.stringify(s.attributes),
      s.events.map((e) => e.name),
    );
sandbox.close();

const ms = ([s, ns]: [number, number]) => s * 1000 + ns / 1e6;
const root = spans.find((s) => !s.parentSpanContext)!;
const t0 = ms(root.startTime);
const total = ms(root.endTime) - t0;
const depth = (id: string | undefined): number => {
  const parent = spans.find((s) => s.spanContext().spanId === id);
  return parent ? 1 + depth(parent.parentSpanContext?.spanId) : 0;
};
const ordered: typeof spans = [];
const walk = (id: string | undefined) => {
  for (const s of spans
    .filter((x) => x.parentSpanContext?.spanId === id)
    .sort((a, b) => ms(a.startTime) - ms(b.startTime))) {
    ordered.push(s);
    walk(s.spanContext().spanId);
  }
};
walk(undefined);
const KIND = ['INTERNAL', 'SERVER', 'CLIENT'];
const esc = (t: string) => t.replace(/[&<>]/g, (c) => `&#${c.charCodeAt(0)};`);
const rows = ordered.map((s) => {
  const left = ((ms(s.startTime) - t0) / total) * 100;
  const width = Math.max(0.3, ((ms(s.endTime) - ms(s.startTime)) / total) * 100);
  const a = s.attributes;
  const detail = [
    a['http.response.status_code'] && `status ${a['http.response.status_code']}`,
    a['http.request.resend_count'] && `resend ${a['http.request.resend_count']}`,
    a['error.type'] && `error.type ${a['error.type']}`,
  ].filter(Boolean);
  const ticks = s.events
    .map((e) => {
      const at = ((ms(e.time as [number, number]) - t0) / total) * 100;
      const label = e.name.replace('partner_print.', '');
      return `<div class="tick" style="left:${at}%" title="${label}"></div><div class="evt" style="left:${at}%">${label}</div>`;
    })
    .join('');
  const kind = KIND[s.kind] ?? '';
  return `<div class="row"><div class="name" style="padding-left:${depth(s.parentSpanContext?.spanId) * 16 + 6}px"><b>${esc(s.name)}</b> <span class="kind">${kind}</span> <span class="detail">${esc(detail.join(', '))}</span></div><div class="lane"><div class="bar ${kind} ${s.status.code === 2 ? 'err' : ''}" style="left:${left}%;width:${width}%"></div>${ticks}<div class="dur" style="left:calc(${left + width}% + 4px)">${(ms(s.endTime) - ms(s.startTime)).toFixed(0)} ms</div></div></div>`;
});
const html = `<!doctype html><meta charset="utf-8"><style>
body{font:13px system-ui,sans-serif;margin:16px;color:#222;width:1320px}
h1{font-size:15px;margin:0 0 4px} p{margin:0 0 10px;color:#555}
.row{display:flex;align-items:center;height:30px;border-bottom:1px solid #eee}
.name{width:600px;white-space:nowrap;overflow:hidden}.kind{color:#888;font-size:11px}.detail{color:#a33;font-size:11px}
.lane{position:relative;flex:1;height:30px}.bar{position:absolute;top:8px;height:12px;border-radius:2px;background:#6b8fd6}
.bar.CLIENT{background:#45a671}.bar.SERVER{background:#8a6bd6}.bar.err{background:#d65b5b}
.tick{position:absolute;top:4px;width:2px;height:20px;background:#e0a020}.evt{position:absolute;top:-1px;font-size:9px;color:#b07800;margin-left:3px;white-space:nowrap}
.dur{position:absolute;top:8px;font-size:10px;color:#666}
</style><h1>One checkout, traced: ${spans.length} spans from @partner-print/client (sandbox, 25 ms latency, one 503, one request in flight at a time)</h1>
<p>Blue: INTERNAL (a call), green: CLIENT (a send), red: a send answered with an error, amber ticks: events (retry, rate-limit queue wait). ${total.toFixed(0)} ms in all.</p>
${rows.join('\n')}`;
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium' });
const page = await browser.newPage({ viewport: { width: 1352, height: 200 }, deviceScaleFactor: 1 });
await page.setContent(html);
await page.screenshot({ path: out, fullPage: true });
await browser.close();
console.log(`${spans.length} spans → ${out}`);
