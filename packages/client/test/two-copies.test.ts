// Two copies of the package in one program: two versions installed side by side (npm nests a second copy when
// a library pins another range: render's or callback's `@partner-print/client`), a library that bundles its
// own copy, or a test's fresh module graph. The errors of one copy's client must still be recognised by the
// other copy's classes, and by the SDK's packages that branch on them (render maps a NotFoundError of
// lookup-composition to CompositionNotFoundError), or a partner's `catch (e) { if (e instanceof …) }` and the
// SDK's own recovery silently take the wrong branch.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createSandbox } from '@partner-print/sandbox';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as ours from '../src/index.ts';
import * as oursLite from '../src/lite.ts';
import * as oursOtel from '../src/otel.ts';
import { samplePng } from './helpers.ts';

type Copy = typeof ours;
let dir: string;
let theirs: Copy;
/** The same copy's lite entry and telemetry entry (one bundle: the copy's modules shared, as its chunks are). */
let theirsLite: typeof oursLite;
let theirsOtel: typeof oursOtel;

beforeAll(async () => {
  // The package as a library's bundle holds it: its own copy of every module.
  dir = mkdtempSync(join(tmpdir(), 'pp-client-copy-'));
  const outfile = join(dir, 'client.mjs');
  const src = (file: string) => JSON.stringify(new URL(`../src/${file}`, import.meta.url).pathname);
  await build({
    stdin: {
      contents: `export * from ${src('index.ts')}; export * as lite from ${src('lite.ts')}; export * as otel from ${src('otel.ts')};`,
      resolveDir: new URL('.', import.meta.url).pathname,
      loader: 'ts',
    },
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    conditions: ['development'],
    outfile,
    logLevel: 'silent',
    external: ['@opentelemetry/api'],
  });
  const copy = (await import(pathToFileURL(outfile).href)) as Copy & {
    lite: typeof oursLite;
    otel: typeof oursOtel;
  };
  theirs = copy;
  theirsLite = copy.lite;
  theirsOtel = copy.otel;
}, 60_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** What a client of `copy` throws for a call the sandbox answers `status`. */
async function errorOf(copy: Copy, path: '/orders/{orderReference}' | '/rendertokens', secretKey?: string) {
  const sandbox = createSandbox();
  const client = copy.createClient({
    secretKey: secretKey ?? sandbox.keys.primary,
    baseUrl: sandbox.baseUrl,
    fetch: sandbox.fetch,
    clock: sandbox.clock,
    retry: false,
  });
  return client
    .get(path as '/orders/{orderReference}', {
      params: { path: { orderReference: 'Order_00000000000000000000000000' } },
    })
    .then(
      () => undefined,
      (error: unknown) => error,
    );
}

describe('errors of another copy of the package', () => {
  it('are the bundle a copy of its own (the classes differ)', () => {
    expect(theirs.NotFoundError).not.toBe(ours.NotFoundError);
  });

  it("are instances of this copy's class of the same name and of its ancestors", async () => {
    const notFound = await errorOf(theirs, '/orders/{orderReference}');
    expect(notFound).toBeInstanceOf(theirs.NotFoundError);
    expect(notFound).toBeInstanceOf(ours.NotFoundError);
    expect(notFound).toBeInstanceOf(ours.PartnerPrintError);
    expect(ours.isPartnerPrintError(notFound)).toBe(true);
    const unauthorized = await errorOf(theirs, '/rendertokens', 'sk_not_a_key_of_the_sandbox');
    expect(unauthorized).toBeInstanceOf(ours.AuthenticationError);
    // And the other way round: this copy's errors for the other copy's classes.
    expect(await errorOf(ours, '/orders/{orderReference}')).toBeInstanceOf(theirs.NotFoundError);
  });

  it("a bundler that renames the second copy's classes (esbuild: NotFoundError2) does not hide them", async () => {
    const notFound = await errorOf(theirs, '/orders/{orderReference}');
    const { name } = theirs.NotFoundError;
    Object.defineProperty(theirs.NotFoundError, 'name', { value: `${name}2` });
    try {
      expect(notFound).toBeInstanceOf(ours.NotFoundError);
      expect(notFound).not.toBeInstanceOf(ours.GoneError);
    } finally {
      Object.defineProperty(theirs.NotFoundError, 'name', { value: name });
    }
  });

  it('are not instances of a class of another name, nor of a subclass', async () => {
    const notFound = await errorOf(theirs, '/orders/{orderReference}');
    for (const other of [ours.GoneError, ours.ValidationError, ours.AuthenticationError, ours.TimeoutError])
      expect(notFound).not.toBeInstanceOf(other);
    const unauthorized = await errorOf(theirs, '/rendertokens', 'sk_not_a_key_of_the_sandbox');
    expect(unauthorized).not.toBeInstanceOf(ours.NotFoundError);
    // A subclass (another package's, here the orders' AmbiguousOrderError) does not take its parent's errors.
    expect(notFound).not.toBeInstanceOf(ours.IdentifierConflictError);
    const ambiguous = new theirs.AmbiguousOutcomeError('lost');
    expect(ambiguous).toBeInstanceOf(ours.AmbiguousOutcomeError);
    expect(ambiguous).not.toBeInstanceOf(ours.AmbiguousOrderError);
  });

  it('nothing else is one: plain errors, look-alikes and primitives', () => {
    const lookAlike = Object.assign(new Error('x'), {
      name: 'NotFoundError',
      code: 'not_found',
      status: 404,
    });
    for (const value of [
      lookAlike,
      new Error('x'),
      { name: 'NotFoundError' },
      null,
      undefined,
      'NotFoundError',
      404,
    ])
      expect(value instanceof ours.NotFoundError || value instanceof ours.PartnerPrintError).toBe(false);
    expect(ours.isPartnerPrintError(lookAlike)).toBe(false);
  });
});

// A program that loads both the ES module and the CommonJS build (an ES module application and a CommonJS
// library requiring the client) holds two copies of one version: the clients one copy makes must work with the
// other's standalone helpers and packages, and one process's exactly-once orders must hold across them.
describe("another copy's clients", () => {
  const sandboxClient = (copy: { createClient: Copy['createClient'] }, options: object = {}) => {
    const sandbox = createSandbox();
    const posts: string[] = [];
    const client = copy.createClient({
      secretKey: sandbox.keys.primary,
      baseUrl: sandbox.baseUrl,
      fetch: (request: Request) => {
        if (request.method === 'POST' && new URL(request.url).pathname.endsWith('/orders'))
          posts.push(request.url);
        return sandbox.fetch(request);
      },
      clock: sandbox.clock,
      ...options,
    });
    return { sandbox, client, posts };
  };

  it("are taken by this copy's standalone helpers (paginate, collect, uploadImage)", async () => {
    const { sandbox, client } = sandboxClient(theirs);
    const products = await oursLite.collect(client, '/products');
    expect(products.length).toBeGreaterThan(0);
    expect(await oursLite.uploadImage(client, samplePng())).toMatch(/^Image_/);
    // And the other way round.
    const mine = sandboxClient(ours);
    expect(await theirsLite.collect(mine.client, '/products')).toEqual(products);
    sandbox.close();
    mine.sandbox.close();
  });

  it('create one order per customIdentifier in one process, whichever copy each call goes through', async () => {
    const { sandbox, client, posts } = sandboxClient(theirs);
    const order: Parameters<typeof oursLite.createOrder<'combined'>>[1] = {
      storeReference: sandbox.seed.stores.combined as `Store_${string}`,
      shippingKind: 'combined',
      customIdentifier: 'two-copies-1',
      orderlines: [{ productReference: sandbox.seed.products.nonPrint as `Product_${string}`, quantity: 1 }],
    };
    const results = await Promise.all([
      client.createOrder(order),
      oursLite.createOrder(client, order),
      theirsLite.createOrder(client, order),
    ]);
    expect(posts).toHaveLength(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(results.map((r) => r.order.reference)).size).toBe(1);
    sandbox.close();
  });

  it("give this copy's telemetryOf the option they were made with", () => {
    const off = sandboxClient(theirs, { telemetry: false });
    expect(oursOtel.telemetryOf(off.client)).toBe(false);
    const mine = sandboxClient(ours, { telemetry: false });
    expect(theirsOtel.telemetryOf(mine.client)).toBe(false);
    off.sandbox.close();
    mine.sandbox.close();
  });
});
