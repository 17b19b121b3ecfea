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

type Copy = typeof ours;
let dir: string;
let theirs: Copy;

beforeAll(async () => {
  // The package as a library's bundle holds it: its own copy of every module.
  dir = mkdtempSync(join(tmpdir(), 'pp-client-copy-'));
  const outfile = join(dir, 'client.mjs');
  await build({
    entryPoints: [new URL('../src/index.ts', import.meta.url).pathname],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    conditions: ['development'],
    outfile,
    logLevel: 'silent',
    external: ['@opentelemetry/api'],
  });
  theirs = (await import(pathToFileURL(outfile).href)) as Copy;
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
