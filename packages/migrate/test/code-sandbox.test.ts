// The rewritten corpus runs against the sandbox (axios and express, the partner's dependencies, stubbed by tiny
// local stand-ins): the order flows create the order the V1 code created (the
// V1 partner reference as custom identifier, the legacy SKU's product, the mapped store), exactly once
// across runs; the Express, Next.js, Fastify and Workers callback handlers, whose order reads keep V1's status (a
// string; V2's is an object) and so stay on V1, answer a legacy callback the sandbox delivers with what V1 answers
// (next/server, like axios and express, stubbed) and create nothing, however often they run; every status read
// left on V1 goes to V1 on the environment's host; the
// rewritten stock sync reads the V2 items and products, the rewritten image uploads send each image's bytes, and
// the rewritten render preview renders through renderMockup and orders with its logo uploaded once (its preview,
// whose V1 answer is returned whole, stays on V1 and answers as V1 does); the rewritten
// CommonJS module still reads its base URL from PP_URL, set to the V1 or the V2 base URL: its order read left on
// V1 (it reads V1's tracking_code) still goes to /v1 of that host, answering what V1 answers, while the V2 client
// takes that host on /v2; the base URL chosen by
// NODE_ENV still sends a production build to production and any other to the test environment; the CommonJS job
// that loads its settings with dotenv reads its secret key after dotenv loaded it.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createClient } from '@partner-print/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { newSandbox } from './helpers.ts';

// These two import the partner's dependencies (axios, express): loaded by path, so this package's type check
// does not follow them (the corpus is type-checked on its own, with their declarations).
const corpusPath = (file: string) => fileURLToPath(new URL(`./code-corpus/${file}`, import.meta.url));
interface ClassClient {
  createOrder(partnerReference: string, lines: Array<{ sku: string; quantity: number }>): Promise<string>;
  orderStatus(reference: string): Promise<unknown>;
  cancel(reference: string): Promise<void>;
}
const classClient = () =>
  import(corpusPath('class-client/expected/client.ts')) as Promise<{
    PartnerPrintClient: new (partnerCode: string, apiKey: string) => ClassClient;
  }>;
type Handler = (req: unknown, res: unknown) => Promise<void>;
const expressServer = () =>
  import(corpusPath('express-callback/expected/server.mjs')) as Promise<{ statuses: Map<string, unknown> }>;

// What the class client's marked call (cancel-all-lines) still sends through axios: a tiny local stand-in
// records it (axios is the partner's dependency, not ours); nothing of it may reach V2.
const axiosCalls: Array<{ baseURL?: string; url: string }> = [];
// Express for the rewritten callback route: the stand-in records the routes (no port is opened).
const routes = new Map<string, Handler>();
vi.mock('express', () => ({
  default: () => ({
    get: (path: string, handler: Handler) => routes.set(path, handler),
    listen: () => undefined,
  }),
}));
// Next.js's NextResponse for the rewritten App Router route: the stand-in answers with a plain Response.
vi.mock('next/server', () => ({
  NextResponse: { json: (body: unknown, init?: ResponseInit) => Response.json(body, init) },
}));
// dotenv, which the environment switch loads its settings with (the test sets them itself).
vi.mock('dotenv/config', () => ({}));
/**
 * V1's order read (a status read stays on V1: V1's status is a string, V2's an object), on the production and the
 * test host: the stand-in answers a V1 order for any reference and records the URL; undefined for other URLs.
 */
const V1_ORDER_URL = /^https:\/\/api(\.test)?\.partner-print\.example\/v1\/orders\/([^/?]+)$/;
const v1OrderAnswer = (url: string) => {
  const m = V1_ORDER_URL.exec(url);
  if (!m) return undefined;
  v1OrderReads.push(url);
  return { order_reference: decodeURIComponent(m[2]!), status: 'shipped', tracking_code: '3SABC' };
};
const v1Order = (url: string) => {
  const answer = v1OrderAnswer(url);
  return answer ? Response.json(answer) : undefined;
};
// ky for the stock sync's one call left on V1 (never called here).
vi.mock('ky', () => ({ default: { create: () => ({}) } }));
vi.mock('axios', () => ({
  default: {
    get: async (url: string) => ({ data: v1OrderAnswer(url) }),
    create: (config: { baseURL?: string }) => ({
      get: async (url: string) => {
        axiosCalls.push({ baseURL: config.baseURL, url });
        return { data: v1OrderAnswer(`${config.baseURL}${url}`) };
      },
      post: async (url: string) => {
        axiosCalls.push({ baseURL: config.baseURL, url });
        return { data: {} };
      },
    }),
  },
}));

/** A fetch-wrapper order shipped, and the legacy callback the sandbox delivered for it (its URL). */
async function shippedWithCallback(
  id: string,
  callbackUrl: string,
): Promise<{ reference: string; url: URL }> {
  const shop = await import('./code-corpus/fetch-wrapper/expected/partner-print.ts');
  const reference = await shop.sendToPrint({
    id,
    lines: [{ sku: sandbox.seed.legacySkus.nonPrint, quantity: 1 }],
  });
  sandbox.control.setCallbackUrl(sandbox.seed.stores.combined, callbackUrl);
  sandbox.control.ship(reference);
  await sandbox.control.runDueDeliveries();
  const delivered = callbacks.find((u) => new URL(u).searchParams.get('order_reference_v2') === reference);
  expect(delivered, `callbacks: ${callbacks.join(', ')}`).toBeDefined();
  return { reference, url: new URL(delivered!) };
}

const V2_BASE = 'https://api.partner-print.example/v2';
let sandbox: ReturnType<typeof newSandbox>;
const callbacks: string[] = [];
/** The POST requests the rewritten code sent (V2 URLs). */
const posts: string[] = [];

beforeEach(() => {
  callbacks.length = 0;
  sandbox = newSandbox({
    // Renders finish at once: renderMockup's first status poll (made right away) finds them completed.
    renderProcessingMs: 0,
    callbackFetch: async (input: Request | string | URL) => {
      callbacks.push(input instanceof Request ? input.url : String(input));
      return new Response(null, { status: 204 });
    },
  });
  // The rewritten modules create their client with the global fetch and the V1 host's /v2 base URL: both
  // are routed to the sandbox here, as DNS and the real service would route them.
  posts.length = 0;
  v1OrderReads.length = 0;
  vi.stubGlobal('fetch', (input: Request | string | URL, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : String(input);
    if ((input instanceof Request ? input.method : init?.method) === 'POST') posts.push(url);
    // A base URL given at run time (PP_URL): the sandbox's own address stands for the test environment.
    if (url.startsWith(`${sandbox.baseUrl}/`)) return sandbox.fetch(input, init);
    const v1 = v1Order(url);
    if (v1) return v1;
    if (!url.startsWith(V2_BASE)) throw new Error(`unexpected request to ${url}`);
    const target = sandbox.baseUrl + url.slice(V2_BASE.length);
    return sandbox.fetch(input instanceof Request ? new Request(target, input) : target, init);
  });
  vi.stubEnv('PARTNER_PRINT_SECRET_KEY', sandbox.keys.primary);
  vi.resetModules();
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
});

const reader = () =>
  createClient({ secretKey: sandbox.keys.primary, baseUrl: sandbox.baseUrl, fetch: sandbox.fetch });

/** The order as the V2 API reads it. */
const storedOrder = async (reference: string) =>
  (
    await reader().get('/orders/{orderReference}', {
      params: { path: { orderReference: reference as `Order_${string}` } },
    })
  ).order;

async function ordersWith(customIdentifier: string) {
  const found = [];
  for await (const o of reader().paginate('/orders'))
    if (o.customIdentifier === customIdentifier) found.push(o);
  return found;
}

interface CjsShop {
  createOrder(order: Record<string, unknown>): Promise<string>;
  getOrder(reference: string): Promise<{ status: unknown; tracking: unknown }>;
}
/** A rewritten CommonJS module, run as CommonJS with the SDK packages (and `others`) as what it requires. */
async function runCjs(file: string, others: Record<string, unknown> = {}): Promise<unknown> {
  const source = readFileSync(corpusPath(file), 'utf8');
  const packages: Record<string, unknown> = {
    '@partner-print/client': await import('@partner-print/client'),
    '@partner-print/migrate': await import('@partner-print/migrate'),
    ...others,
  };
  const module = { exports: {} };
  new Function('require', 'module', 'exports', source)((id: string) => packages[id], module, module.exports);
  return module.exports;
}
/** What the CommonJS module's order read, left on V1 (it reads V1's tracking_code), still asks V1 with node-fetch. */
const v1OrderReads: string[] = [];
/** V1's order read, on the production host and on the sandbox's (the test environment's) host. */
const V1_HOSTS = ['https://api.partner-print.example/v1', 'http://sandbox.localhost/v1'];
const nodeFetch = async (url: string) => {
  v1OrderReads.push(url);
  if (!V1_HOSTS.some((h) => url === `${h}/orders/ACME1-17`)) throw new Error(`unexpected request to ${url}`);
  return Response.json({ order_reference: 'ACME1-17', status: 'shipped', tracking_code: '3SABC' });
};
/** The rewritten CommonJS module (node-fetch's). */
const cjsShop = async () =>
  (await runCjs('cjs-node-fetch/expected/partner-print.js', { 'node-fetch': nodeFetch })) as CjsShop;

describe('rewritten corpus against the sandbox', () => {
  it('CommonJS node-fetch: one setting of PP_URL (the V1 base URL it held, or the V2 one) runs both the V2 client and the order read left on V1, in production and in the test environment', async () => {
    const order = (id: string) => ({
      store_code: 'ACME1',
      shipping_kind: 'combined',
      partner_reference: id,
      orderlines: [{ sku: sandbox.seed.legacySkus.nonPrint, quantity: 1 }],
    });
    expect(sandbox.baseUrl).toBe('http://sandbox.localhost/v2');
    // [PP_URL as V1 had it, where the V2 calls must go, where the V1 read must go]
    const settings: Array<[string, string, string]> = [
      // PP_URL set to the test environment's V1 base URL (the sandbox's host): V2 there too.
      ['http://sandbox.localhost/v1', sandbox.baseUrl, 'http://sandbox.localhost/v1'],
      // PP_URL set to production's V1 base URL, or unset (or empty, as `||` reads it): the fallback's host.
      ['https://api.partner-print.example/v1', V2_BASE, 'https://api.partner-print.example/v1'],
      ['', V2_BASE, 'https://api.partner-print.example/v1'],
      // PP_URL set to a V2 base URL already (as an older TODO asked): the V2 client takes it as it is, and the read
      // left on V1 goes to /v1 of the same host (the reference: V1 at /v1, V2 at /v2 on the same hosts), never
      // with V1 headers to V2.
      ['http://sandbox.localhost/v2', sandbox.baseUrl, 'http://sandbox.localhost/v1'],
      ['https://api.partner-print.example/v2', V2_BASE, 'https://api.partner-print.example/v1'],
    ];
    for (const [i, [ppUrl, v2, v1]] of settings.entries()) {
      vi.stubEnv('PP_URL', ppUrl);
      posts.length = 0;
      v1OrderReads.length = 0;
      const shop = await cjsShop();
      const reference = await shop.createOrder(order(`cjs-${i}`));
      expect(reference, ppUrl).toMatch(/^Order_/);
      expect(await shop.createOrder(order(`cjs-${i}`)), ppUrl).toBe(reference);
      expect(posts.length, ppUrl).toBeGreaterThan(0);
      expect(
        posts.every((u) => u.startsWith(`${v2}/`)),
        ppUrl,
      ).toBe(true);
      // The order read stays on V1 (V2's order read has no tracking_code): it answers what V1 answers.
      expect(await shop.getOrder('ACME1-17'), ppUrl).toEqual({ status: 'shipped', tracking: '3SABC' });
      expect(v1OrderReads, ppUrl).toEqual([`${v1}/orders/ACME1-17`]);
    }
  });

  it('environment switch: the base URL chosen by NODE_ENV keeps its condition: a production build orders in production, any other in the test environment', async () => {
    const TEST_V2 = 'https://api.test.partner-print.example/v2';
    // Both hosts routed to the sandbox; which host each request went to is recorded.
    const hosts: string[] = [];
    vi.stubGlobal('fetch', (input: Request | string | URL, init?: RequestInit) => {
      const url = input instanceof Request ? input.url : String(input);
      hosts.push(new URL(url).host);
      const v1 = v1Order(url);
      if (v1) return v1;
      const base = [V2_BASE, TEST_V2].find((b) => url.startsWith(`${b}/`));
      if (!base) throw new Error(`unexpected request to ${url}`);
      const target = sandbox.baseUrl + url.slice(base.length);
      return sandbox.fetch(input instanceof Request ? new Request(target, input) : target, init);
    });
    const cases = [
      ['production', 'api.partner-print.example'],
      ['development', 'api.test.partner-print.example'],
      ['test', 'api.test.partner-print.example'],
    ];
    for (const [env, host] of cases) {
      vi.stubEnv('NODE_ENV', env);
      vi.resetModules();
      hosts.length = 0;
      const shop = (await import(corpusPath('env-switch/expected/partner-print.ts'))) as {
        placeOrder(order: Record<string, unknown>): Promise<string>;
        printStatus(reference: string): Promise<unknown>;
      };
      const reference = await shop.placeOrder({
        store_code: 'ACME1',
        shipping_kind: 'combined',
        partner_reference: `env-${env}`,
        orderlines: [{ sku: sandbox.seed.legacySkus.nonPrint, quantity: 1 }],
      });
      expect(reference).toMatch(/^Order_/);
      // The status read stays on V1 (V1's status is a string, V2's an object), on the same environment's host.
      v1OrderReads.length = 0;
      expect(await shop.printStatus('ACME1-17')).toBe('shipped');
      expect(v1OrderReads).toEqual([`https://${host}/v1/orders/ACME1-17`]);
      expect(hosts.length, env).toBeGreaterThan(0);
      expect(new Set(hosts), env).toEqual(new Set([host]));
    }
  });

  it('dotenv job (CommonJS): the secret key is read after `dotenv.config()` loaded it, as the V1 credentials were', async () => {
    // The key is only in the .env file: dotenv (a stand-in) sets it when its config() runs, not before.
    vi.stubEnv('PARTNER_PRINT_SECRET_KEY', undefined);
    let loaded = false;
    const dotenv = {
      config: () => {
        loaded = true;
        vi.stubEnv('PARTNER_PRINT_SECRET_KEY', sandbox.keys.primary);
      },
    };
    const job = (await runCjs('dotenv-job/expected/submit.js', { dotenv })) as {
      submit(order: Record<string, unknown>): Promise<string>;
    };
    expect(loaded).toBe(true);
    const order = {
      store_code: 'ACME1',
      shipping_kind: 'combined',
      partner_reference: 'nightly-1',
      orderlines: [{ sku: sandbox.seed.legacySkus.nonPrint, quantity: 1 }],
    };
    const reference = await job.submit(order);
    expect(reference).toMatch(/^Order_/);
    expect((await ordersWith('nightly-1')).map((o) => o.reference)).toEqual([reference]);
  });

  it('fetch wrapper: the order exists once, with the V1 order’s content; a second run creates none', async () => {
    const shop = await import('./code-corpus/fetch-wrapper/expected/partner-print.ts');
    const order = { id: 'web-1001', lines: [{ sku: sandbox.seed.legacySkus.nonPrint, quantity: 2 }] };
    const reference = await shop.sendToPrint(order);
    expect(reference).toMatch(/^Order_/);
    // Another process (a fresh module, a fresh client) sending the same shop order again.
    vi.resetModules();
    const again = await import('./code-corpus/fetch-wrapper/expected/partner-print.ts');
    expect(await again.sendToPrint(order)).toBe(reference);
    const stored = await ordersWith('web-1001');
    expect(stored.map((o) => o.reference)).toEqual([reference]);
    const read = await storedOrder(reference);
    expect(read).toMatchObject({
      reference,
      storeReference: sandbox.seed.stores.combined,
      customIdentifier: 'web-1001',
    });
    expect(read.orderlines).toMatchObject([
      { productReference: sandbox.seed.products.nonPrint, quantity: 2 },
    ]);
    // The status read stays on V1 (V1's status is a string, V2's an object): it answers what V1 answers.
    v1OrderReads.length = 0;
    expect(await shop.printStatus('ACME1-1001')).toBe('shipped');
    expect(v1OrderReads).toEqual(['https://api.partner-print.example/v1/orders/ACME1-1001']);
  });

  it('ky client: the same, and an unknown SKU fails before anything is posted', async () => {
    // By path: its status read, left on V1, keeps importing ky (the partner's dependency, stubbed above).
    const shop = (await import(corpusPath('ky-client/expected/print.ts'))) as {
      orderNow(reference: string, sku: string): Promise<string>;
    };
    const ref = await shop.orderNow('ky-7', sandbox.seed.legacySkus.nonPrint);
    expect(await shop.orderNow('ky-7', sandbox.seed.legacySkus.nonPrint)).toBe(ref);
    expect((await ordersWith('ky-7')).length).toBe(1);
    await expect(shop.orderNow('ky-8', 'NO-SUCH-SKU')).rejects.toThrow(/Unknown legacy SKU "NO-SUCH-SKU"/);
    expect(await ordersWith('ky-8')).toEqual([]);
  });

  it('class client (axios): the order exists once; its status read and the marked V1 call are left on V1', async () => {
    const { PartnerPrintClient } = await classClient();
    const lines = [{ sku: sandbox.seed.legacySkus.nonPrint, quantity: 3 }];
    const reference = await new PartnerPrintClient('ACME', 'v1-key').createOrder('class-9', lines);
    expect(reference).toMatch(/^Order_/);
    vi.resetModules();
    const again = await classClient();
    expect(await new again.PartnerPrintClient('ACME', 'v1-key').createOrder('class-9', lines)).toBe(
      reference,
    );
    const stored = await ordersWith('class-9');
    expect(stored.map((o) => o.reference)).toEqual([reference]);
    expect(stored[0]).toMatchObject({ storeReference: sandbox.seed.stores.combined });
    expect(stored[0]?.orderlines).toMatchObject([
      { productReference: sandbox.seed.products.nonPrint, quantity: 3 },
    ]);
    const client = new again.PartnerPrintClient('ACME', 'v1-key');
    axiosCalls.length = 0;
    expect(await client.orderStatus('ACME1-9')).toBe('shipped');
    expect(axiosCalls).toEqual([{ baseURL: 'https://api.partner-print.example/v1', url: '/orders/ACME1-9' }]);
    axiosCalls.length = 0;
    await client.cancel(reference);
    expect(axiosCalls).toEqual([
      { baseURL: 'https://api.partner-print.example/v1', url: `/orders/${reference}/cancel-all-lines` },
    ]);
  });

  it('Express callback: the route, whose order read stays on V1 (it keeps the status), reads order_reference of a delivered legacy callback and stores what V1 answers', async () => {
    const { reference, url } = await shippedWithCallback(
      'web-3003',
      'https://shop.example/partner-print/order-updated',
    );
    const server = await expressServer();
    const route = routes.get(url.pathname);
    expect(route).toBeDefined();
    let sent: number | undefined;
    await route?.({ query: Object.fromEntries(url.searchParams) }, { sendStatus: (n: number) => (sent = n) });
    expect(sent).toBe(204);
    expect(url.searchParams.get('custom_reference')).toBe('web-3003');
    expect(server.statuses.get('web-3003')).toBe('shipped');
    expect(v1OrderReads).toEqual([
      `https://api.partner-print.example/v1/orders/${url.searchParams.get('order_reference')}`,
    ]);
    expect((await ordersWith('web-3003')).map((o) => o.reference)).toEqual([reference]);
  });

  it('Workers callback: the handler, whose order read stays on V1 (it keeps the status), answers a delivered legacy callback with what V1 answers', async () => {
    const { reference, url } = await shippedWithCallback(
      'web-2002',
      'https://shop.example/partner-print/callback',
    );
    const worker = (await import('./code-corpus/workers-handler/expected/worker.ts')).default;
    const res = await worker.fetch(new Request(url), { PP_PARTNER_CODE: '', PP_API_KEY: '' });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { reference: string; status: unknown };
    expect(body).toEqual({ reference: url.searchParams.get('order_reference'), status: 'shipped' });
    expect((await ordersWith('web-2002')).map((o) => o.reference)).toEqual([reference]);
  });

  it('Next.js route: the GET, whose order read stays on V1 (it keeps the status), answers a delivered legacy callback with the V1 status, twice, creating nothing', async () => {
    const { reference, url } = await shippedWithCallback(
      'next-4004',
      'https://shop.example/api/partner-print/callback',
    );
    const { GET } = (await import(corpusPath('nextjs-route/expected/route.ts'))) as {
      GET: (req: { nextUrl: URL }) => Promise<Response>;
    };
    for (let run = 0; run < 2; run++) {
      const res = await GET({ nextUrl: url });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: 'shipped' });
    }
    expect((await ordersWith('next-4004')).map((o) => o.reference)).toEqual([reference]);
    // The V1 route's 400 for a callback without the reference is kept.
    const bad = (await GET({
      nextUrl: new URL('https://shop.example/api/partner-print/callback'),
    })) as Response;
    expect(bad.status).toBe(400);
  });

  it('Fastify route: the handler, whose order read stays on V1 (it logs the status), answers a delivered legacy callback (204) and logs the V1 status, twice, creating nothing', async () => {
    const { reference, url } = await shippedWithCallback(
      'fastify-5005',
      'https://shop.example/callbacks/partner-print',
    );
    type Route = (request: unknown, reply: unknown) => Promise<unknown>;
    const routesOf = (
      (await import(corpusPath('fastify-callback/expected/routes.ts'))) as {
        default: (app: { get(path: string, handler: Route): void; log: unknown }) => Promise<void>;
      }
    ).default;
    // Fastify stand-in: records the route and what the handler logs; the reply records the status it sends.
    const handlers = new Map<string, Route>();
    const logged: unknown[] = [];
    await routesOf({
      get: (path: string, handler: (request: unknown, reply: unknown) => Promise<unknown>) =>
        handlers.set(path, handler),
      log: { info: (fields: unknown) => logged.push(fields) },
    } as never);
    const handler = handlers.get(url.pathname);
    expect(handler).toBeDefined();
    for (let run = 0; run < 2; run++) {
      let code: number | undefined;
      const reply = {
        code: (n: number) => {
          code = n;
          return { send: () => undefined };
        },
      };
      await handler?.({ query: Object.fromEntries(url.searchParams) }, reply);
      expect(code).toBe(204);
    }
    expect(logged).toEqual([
      { custom_reference: 'fastify-5005', status: 'shipped' },
      { custom_reference: 'fastify-5005', status: 'shipped' },
    ]);
    expect((await ordersWith('fastify-5005')).map((o) => o.reference)).toEqual([reference]);
  });

  it('stock sync: quantities come from the warehouse items, the offered SKUs from the products’ legacy SKUs', async () => {
    const sync = (await import(corpusPath('stock-sync/expected/stock.ts'))) as {
      availableBySku(): Promise<Map<string, number>>;
      orderableSkus(): Promise<Array<string | undefined>>;
    };
    const items = await reader().collect('/items');
    const available = await sync.availableBySku();
    expect([...available]).toEqual(items.map((i) => [i.sku, i.logicalQuantity]));
    expect(available.size).toBeGreaterThan(0);
    const skus = await sync.orderableSkus();
    expect(skus).toEqual((await reader().collect('/products')).map((p) => p.legacyItemSKU));
    expect(skus).toContain(sandbox.seed.legacySkus.nonPrint);
    expect(posts).toEqual([]);
  });

  it('image uploads: the logo (a data URL constant) and the same bytes as run-time base64url give one Image_ reference, one upload each way', async () => {
    const preview = (await import(corpusPath('render-preview/expected/preview.ts'))) as {
      uploadLogo(): Promise<string>;
      uploadArtwork(base64: string): Promise<string>;
    };
    const logo = await preview.uploadLogo();
    expect(logo).toMatch(/^Image_/);
    const png =
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
    const base64url = png.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    expect(await preview.uploadArtwork(base64url)).toBe(logo);
    // The adapter uploads the same bytes once however often they come.
    expect(await preview.uploadArtwork(png)).toBe(logo);
    expect(posts.filter((u) => u.endsWith('/v2/images'))).toHaveLength(2);
    await expect(preview.uploadArtwork(btoa('GIF89a......'))).rejects.toMatchObject({
      code: 'invalid_image',
    });
    expect(posts.filter((u) => u.endsWith('/v2/images'))).toHaveLength(2);
  });

  it('render preview: the preview whose V1 answer is returned whole stays on V1 and answers as V1; the sample flow uploads the logo once, renders through renderMockup, and orders once', async () => {
    type Preview = {
      preview(sku: string): Promise<unknown>;
      sampleWithPreview(storeId: string): Promise<string>;
    };
    // V1 still answers the preview (a stand-in, as V1 would); everything else goes to V2 as before.
    const V1_RENDER = {
      reference: 'RND-1',
      status: 'completed',
      url: 'https://cdn.partner-print.example/RND-1.png',
    };
    const v1Renders: string[] = [];
    const toV2 = globalThis.fetch;
    vi.stubGlobal('fetch', (input: Request | string | URL, init?: RequestInit) => {
      const url = input instanceof Request ? input.url : String(input);
      if (url !== 'https://api.partner-print.example/v1/render') return toV2(input, init);
      v1Renders.push(String(init?.body));
      return Response.json(V1_RENDER);
    });
    const shop = (await import(corpusPath('render-preview/expected/preview.ts'))) as Preview;
    expect(await shop.preview(sandbox.seed.legacySkus.print)).toEqual(V1_RENDER);
    expect(v1Renders).toHaveLength(1);
    expect(JSON.parse(v1Renders[0]!)).toMatchObject({ sku: sandbox.seed.legacySkus.print });
    // Nothing of it went to V2: no upload of the logo for it, no render.
    expect(posts).toEqual([]);
    const reference = await shop.sampleWithPreview('store-7');
    const path = (u: string) => new URL(u).pathname.replace(/^\/v2/, '');
    const sent = () =>
      posts.map(path).filter((p) => p !== '/utilities/lookup-order-reference-by-custom-identifier');
    // One upload for the logo on the render and on both lines, one render, then the order.
    expect(sent()).toEqual(['/images', '/renders', '/orders']);
    const stored = await ordersWith('sample-store-7');
    expect(stored.map((o) => o.reference)).toEqual([reference]);
    // The logo's Image_ reference (uploading the same bytes again answers it) is on both lines.
    const png =
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
    const image = await reader().uploadImage(Uint8Array.from(atob(png), (c) => c.charCodeAt(0)));
    expect(image).toMatch(/^Image_/);
    posts.length = 0;
    expect(stored[0]?.orderlines).toMatchObject([
      { productReference: sandbox.seed.products.print, quantity: 1, imageReference: image },
      { productReference: sandbox.seed.products.printNew, quantity: 2, imageReference: image },
    ]);
    // Another process: a fresh client renders (the service answers the existing render) and finds the order.
    vi.resetModules();
    posts.length = 0;
    const again = (await import(corpusPath('render-preview/expected/preview.ts'))) as Preview;
    expect(await again.sampleWithPreview('store-7')).toBe(reference);
    expect(sent()).toEqual(['/images', '/renders']);
    expect((await ordersWith('sample-store-7')).length).toBe(1);
    expect(v1Renders).toHaveLength(1);
  });
});
