// One real flow through the built packages' public APIs, run unchanged in every runtime of the matrix.
// Most steps talk to the in-process sandbox through its `fetch` handler (no sockets), so the same
// bundle works in Node, Bun, Deno, workerd and a browser page. Time is the sandbox's virtual clock.
// The hostile steps (hostile.ts) use the runtime's own fetch against two servers on 127.0.0.1 that run.ts
// starts in Node and passes in (`runFlow(targets)`); without them those steps are n/a.
import { createOrderUpdatedHandler, type Order, parseOrderUpdatedCallback } from '@partner-print/callback';
import { createClient, NotFoundError, type PartnerPrintClient } from '@partner-print/client';
import * as lite from '@partner-print/client/lite';
import { convertV1Order, createSkuResolver, parseLegacySku } from '@partner-print/migrate';
import { KNOWN_ERROR_CODES, OPERATIONS, REFERENCE_PREFIXES } from '@partner-print/openapi';
import { parseRateLimitHeaders } from '@partner-print/ratelimit';
import { renderMockup } from '@partner-print/render';
import { createSandbox, type Sandbox } from '@partner-print/sandbox';
import { samplePng } from '../../docs/examples/steps/sample-image.ts';
import {
  crossOriginRedirects,
  echoedKey,
  expectedMode,
  type HostileTargets,
  NotApplicable,
  probeManualRedirect,
  sameOriginRedirects,
} from './hostile.ts';

export interface StepResult {
  name: string;
  ok: boolean;
  /** Set when the step cannot run in this runtime or run: why (the step is then neither a pass nor a fail). */
  na?: string;
  ms: number;
  detail?: string;
  error?: string;
}

export interface FlowResult {
  runtime: string;
  version: string;
  ok: boolean;
  ms: number;
  steps: StepResult[];
}

const now = () => (typeof performance !== 'undefined' ? performance.now() : Date.now());

/** What the flow uses of `AsyncLocalStorage` (looked up at run time, where the runtime has it). */
interface AsyncStorage {
  run<R>(store: string, fn: () => R): R;
  getStore(): unknown;
}

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

/** Which runtime this is, from globals only (no imports that differ per runtime). */
export function detectRuntime(): { runtime: string; version: string } {
  const g = globalThis as Record<string, unknown> & {
    Deno?: { version: { deno: string } };
    Bun?: { version: string };
    process?: { versions?: Record<string, string> };
    navigator?: { userAgent?: string };
  };
  if (g.Deno) return { runtime: 'deno', version: g.Deno.version.deno };
  if (g.Bun) return { runtime: 'bun', version: g.Bun.version };
  const ua = g.navigator?.userAgent ?? '';
  if (ua === 'Cloudflare-Workers') return { runtime: 'workerd', version: 'Cloudflare-Workers' };
  if (g.process?.versions?.node && !/Chrome\//.test(ua))
    return { runtime: 'node', version: g.process.versions.node };
  const chrome = /(?:HeadlessChrome|Chrome)\/([\d.]+)/.exec(ua);
  if (chrome) return { runtime: 'chromium', version: chrome[1]! };
  return { runtime: 'unknown', version: ua || 'unknown' };
}

function clientFor(
  sandbox: Sandbox,
  extra: Partial<Parameters<typeof createClient>[0]> = {},
): PartnerPrintClient {
  return createClient({
    secretKey: sandbox.keys.primary,
    baseUrl: sandbox.baseUrl,
    fetch: (request) => sandbox.fetch(request),
    clock: sandbox.clock,
    ...extra,
  });
}

const steps: Array<[string, () => Promise<string>]> = [
  [
    'openapi',
    async () => {
      check(REFERENCE_PREFIXES && Object.keys(REFERENCE_PREFIXES).length > 0, 'REFERENCE_PREFIXES is empty');
      check(OPERATIONS.createOrder?.method, 'OPERATIONS.createOrder is missing');
      check(KNOWN_ERROR_CODES.length > 0, 'KNOWN_ERROR_CODES is empty');
      return `${Object.keys(OPERATIONS).length} operations`;
    },
  ],
  [
    'sandbox app',
    async () => {
      const sandbox = createSandbox();
      const url = `${sandbox.baseUrl}/products`;
      const anonymous = await sandbox.fetch(new Request(url));
      check(anonymous.status === 401, `GET /products without a key: ${anonymous.status}, expected 401`);
      await anonymous.body?.cancel();
      const res = await sandbox.fetch(
        new Request(url, { headers: { 'X-Service-Secret-Key': sandbox.keys.primary } }),
      );
      check(res.status === 200, `GET /products: ${res.status}`);
      const body = (await res.json()) as { products: unknown[] };
      const limits = parseRateLimitHeaders(res.headers);
      check(limits.policies.length > 0, 'no rate-limit policy headers parsed');
      const control = await sandbox.fetch(new Request('http://sandbox.localhost/_sandbox/rate-limits'));
      check(control.status === 200, `GET /_sandbox/rate-limits: ${control.status}`);
      await control.body?.cancel();
      sandbox.close();
      return `${body.products.length} products, policies ${limits.policies.map((p) => p.name).join('+')}`;
    },
  ],
  [
    'client lite',
    async () => {
      const sandbox = createSandbox();
      const client = lite.createClient({
        secretKey: sandbox.keys.primary,
        baseUrl: sandbox.baseUrl,
        fetch: (request) => sandbox.fetch(request),
        clock: sandbox.clock,
      });
      check(!('paginate' in client) && client.scheduler === undefined, 'the lite client has helper methods');
      const image = await lite.uploadImage(client, samplePng());
      const products = await lite.collect(client, '/products');
      check(image.startsWith('Image_') && products.length > 0, 'lite upload or collect failed');
      // An async iterable of byte chunks (Chromium and Safari have no ReadableStream.from).
      const png = samplePng(8, 8, 3);
      async function* chunks() {
        yield png.subarray(0, 5);
        yield png.subarray(5);
      }
      const streamed = await lite.uploadImage(client, chunks());
      check(streamed.startsWith('Image_') && streamed !== image, 'lite upload of an async iterable failed');
      sandbox.close();
      return `${image.slice(0, 10)}…, ${products.length} products, an async iterable uploaded`;
    },
  ],
  [
    'telemetry, no provider',
    async () => {
      // OpenTelemetry's API is in the bundle, with no SDK registered: calls work as without it, and no trace
      // header goes out (the API's no-op propagator), whatever the runtime.
      const sandbox = createSandbox();
      const sent: Headers[] = [];
      const fetch = (request: Request) => {
        sent.push(new Headers(request.headers));
        return sandbox.fetch(request);
      };
      for (const telemetry of [undefined, false] as const) {
        const client = clientFor(sandbox, { fetch, ...(telemetry === false && { telemetry }) });
        const products = await client.collect('/products', undefined, { max: 3 });
        check(products.length > 0, 'no products');
        await client
          .get('/orders/{orderReference}', {
            params: { path: { orderReference: 'Order_00000000000000000000000000' } },
          })
          .catch(() => undefined);
      }
      check(sent.length >= 4, `${sent.length} requests`);
      const traced = sent.filter((h) => h.has('traceparent') || h.has('baggage'));
      check(traced.length === 0, `${traced.length} requests carried trace headers without a provider`);
      sandbox.close();
      return `${sent.length} requests, none with trace headers`;
    },
  ],
  [
    'client + scheduler',
    async () => {
      // A tight policy (5 requests per 60 s) so the scheduler has to wait on the virtual clock.
      const sandbox = createSandbox({ rateLimits: { default: { q: 5, w: 60 } } });
      let tooMany = 0;
      const client = createClient({
        secretKey: sandbox.keys.primary,
        baseUrl: sandbox.baseUrl,
        fetch: async (request) => {
          const res = await sandbox.fetch(request);
          if (res.status === 429) tooMany++;
          return res;
        },
        clock: sandbox.clock,
      });
      check(client.scheduler, 'the client has no scheduler by default');
      const start = sandbox.clock.now();
      await client.get('/products'); // teaches the scheduler the live policy
      const lists = await Promise.all(Array.from({ length: 11 }, () => client.get('/products')));
      const waited = sandbox.clock.now() - start;
      check(
        lists.every((l) => Array.isArray(l.products)),
        'a list came back without products',
      );
      check(tooMany === 0, `${tooMany} responses were 429`);
      check(waited >= 60_000, `12 requests at 5/60s took only ${waited} virtual ms`);
      const all = await client.collect('/products', undefined, { max: 1000 });
      await client
        .get('/orders/{orderReference}', {
          params: { path: { orderReference: 'Order_00000000000000000000000000' } },
        })
        .then(
          () => check(false, 'an unknown order was found'),
          (error: unknown) =>
            check(error instanceof NotFoundError, `expected NotFoundError, got ${String(error)}`),
        );
      const stats = client.scheduler.stats();
      sandbox.close();
      return `12 requests in ${Math.round(waited / 1000)} virtual s, 0 × 429, ${stats.completed} completed; ${all.length} products paginated`;
    },
  ],
  [
    'async context',
    async () => {
      // Found the way the SDK finds it (no static node:async_hooks import: the bundle is web-standard).
      const hooks = (
        globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }
      ).process?.getBuiltinModule?.('node:async_hooks') as
        | { AsyncLocalStorage?: new () => AsyncStorage }
        | undefined;
      if (!hooks?.AsyncLocalStorage) throw new NotApplicable('no AsyncLocalStorage in this runtime');
      const storage = new hooks.AsyncLocalStorage();
      const sandbox = createSandbox({ rateLimits: { default: { q: 2, w: 1 } } });
      const seen: Array<[unknown, string]> = [];
      const client = clientFor(sandbox, {
        rateLimit: { concurrency: 1 },
        fetch: (request) => {
          seen.push([storage.getStore(), new URL(request.url).searchParams.get('cursor') ?? '']);
          return sandbox.fetch(request);
        },
      });
      await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          storage.run(`call-${i}`, () =>
            client.GET('/claimcategories', { params: { query: { cursor: `call-${i}` } } }),
          ),
        ),
      );
      const wrong = seen.filter(([context, label]) => context !== label);
      check(seen.length >= 6, `${seen.length} requests sent for 6 calls`);
      check(
        wrong.length === 0,
        `${wrong.length} of ${seen.length} queued requests ran in another call's context`,
      );
      sandbox.close();
      return `${seen.length} queued requests, each in its caller's AsyncLocalStorage context`;
    },
  ],
  [
    'render poller',
    async () => {
      const sandbox = createSandbox({ rateLimits: false });
      const client = clientFor(sandbox);
      const { seed, clock } = sandbox;
      const result = await renderMockup(client, {
        sceneReference: seed.scenes.studio,
        productReference: seed.products.print,
        perspectiveReference: seed.perspectives.studioFront,
        image: samplePng(48, 48, 3),
        clock,
      });
      check(result.media.size > 0, 'empty render media');
      check(result.render.reference.startsWith('Render_'), `odd render reference ${result.render.reference}`);
      sandbox.close();
      return `${result.render.reference.slice(0, 12)}… ${result.media.size} B ${result.media.mimeType}, ${result.tokensSpent} token(s)`;
    },
  ],
  [
    'callback handler',
    async () => {
      const received: Order[] = [];
      let handler: ((request: Request) => Promise<Response>) | undefined;
      // The sandbox delivers the legacy callback to the handler in process: fetch → Request → handler.
      const sandbox = createSandbox({
        rateLimits: false,
        callbackFetch: (input, init) => handler!(new Request(input, init)),
      });
      const client = clientFor(sandbox);
      handler = createOrderUpdatedHandler({
        client,
        environment: 'test',
        // The coalescing window's length is not what this step checks; the default 1 s was a tenth of each
        // runtime's flow, and the matrix is on pnpm test's critical path.
        windowMs: 50,
        onOrderUpdated: (order) => {
          received.push(order);
        },
      });
      sandbox.control.setCallbackUrl(
        sandbox.seed.stores.combined,
        'https://hooks.example.test/print?tenant=eu',
      );
      const { order } = await client.post('/orders', {
        body: {
          order: {
            storeReference: sandbox.seed.stores.combined,
            shippingKind: 'combined',
            customIdentifier: 'runtime-1',
            orderlines: [{ productReference: sandbox.seed.products.nonPrint, quantity: 1 }],
          },
        },
      });
      sandbox.control.ship(order.reference);
      await sandbox.control.runDueDeliveries();
      check(
        received.some((o) => o.reference === order.reference),
        'the handler did not receive the shipped order',
      );
      const delivered = sandbox.control.deliveries().filter((d) => d.orderReference === order.reference);
      check(
        delivered.length > 0 && delivered.every((d) => d.state === 'delivered'),
        'a delivery is not delivered',
      );
      // A malformed callback is refused before any fetch.
      const bad = await handler(new Request('https://hooks.example.test/print?environment=test'));
      check(bad.status >= 400 && bad.status < 500, `malformed callback answered ${bad.status}`);
      const parsed = parseOrderUpdatedCallback('https://hooks.example.test/print?environment=test');
      check(!parsed.ok, 'a malformed callback parsed');
      sandbox.close();
      return `${delivered.length} delivery(ies) handled, malformed → ${bad.status}`;
    },
  ],
  [
    'migrate',
    async () => {
      const sandbox = createSandbox({ rateLimits: false });
      const client = clientFor(sandbox);
      const { seed } = sandbox;
      const resolver = createSkuResolver(client);
      check(parseLegacySku(seed.legacySkus.printNew), 'parseLegacySku returned nothing');
      const v1 = {
        store_reference: seed.stores.combined,
        shipping_kind: 'combined',
        partner_reference: 'v1-order-77',
        orderlines: [
          { sku: seed.legacySkus.nonPrint, quantity: '2' },
          {
            sku: seed.legacySkus.poster,
            image_reference: await client.uploadImage(samplePng(40, 40, 7)),
            quantity: 1,
          },
        ],
        gift_wrap: true,
      };
      const converted = await convertV1Order(v1, {
        resolveSku: (sku) => resolver.resolve(sku),
      });
      if (!converted.ok) throw new Error(`conversion failed: ${JSON.stringify(converted.errors)}`);
      check(
        converted.order.orderlines[0]?.productReference === seed.products.nonPrint,
        'SKU resolved wrongly',
      );
      check(
        converted.report.some((r) => r.action === 'unknown' && r.path === 'gift_wrap'),
        'unknown field not reported',
      );
      const created = await client.createOrder(converted.order);
      check(created.order.reference.startsWith('Order_'), 'the converted order was not created');
      const unknown = await resolver.resolve('NO-SUCH-SKU-123');
      check(unknown.status !== 'resolved', 'an unknown SKU resolved');
      sandbox.close();
      return `${converted.order.orderlines.length} lines converted, order created, ${resolver.stats().lookups} lookups`;
    },
  ],
];

/** The issue-19 steps: the client's redirect policy and redaction against the hostile servers. */
function hostileSteps(targets: HostileTargets | undefined): Array<[string, () => Promise<string>]> {
  const given = () => {
    if (!targets) throw new NotApplicable('no hostile servers given to this run (run.ts starts them)');
    return targets;
  };
  // Browsers hide every redirect under redirect: 'manual'; the first step checks this runtime does what is
  // expected of it, so a change in a runtime shows up as a failure, not as a silently different test.
  const mode = expectedMode(detectRuntime().runtime);
  return [
    [
      "fetch redirect: 'manual'",
      async () => {
        const measured = await probeManualRedirect(given());
        check(measured.mode === mode, `expected ${mode} redirects here, measured: ${measured.detail}`);
        return measured.detail;
      },
    ],
    ['redirects: other origin', () => crossOriginRedirects(given(), mode)],
    ['redirects: same origin', () => sameOriginRedirects(given(), mode)],
    ['redaction: echoed key', () => echoedKey(given())],
  ];
}

/** Runs every step; never throws: failures are reported per step. */
export async function runFlow(targets?: HostileTargets): Promise<FlowResult> {
  const started = now();
  const results: StepResult[] = [];
  for (const [name, run] of [...steps, ...hostileSteps(targets)]) {
    const t = now();
    try {
      const detail = await run();
      results.push({ name, ok: true, ms: Math.round(now() - t), detail });
    } catch (error) {
      const e = error as Error;
      if (e instanceof NotApplicable) {
        results.push({ name, ok: true, na: e.message, ms: Math.round(now() - t) });
        continue;
      }
      results.push({
        name,
        ok: false,
        ms: Math.round(now() - t),
        error: `${e?.name ?? 'Error'}: ${e?.message ?? e}`,
      });
    }
  }
  return {
    ...detectRuntime(),
    ok: results.every((r) => r.ok),
    ms: Math.round(now() - started),
    steps: results,
  };
}
