// download counts the requests and backoff of an ask that retried internally (a 503 before its 202 or 200)
// in the attempts and retryDelayMs of its errors.
import { describe, expect, it } from 'vitest';
import { createClient, download, type PartnerPrintError, TimeoutError } from '../src/index.ts';
import { createClient as createLiteClient } from '../src/lite.ts';
import { BASE, fakeFetch, json, KEY, PNG, testClock } from './fake.ts';

describe.each([
  ['main entry, no scheduler or telemetry', false, false],
  ['main entry, its default scheduler and telemetry', false, true],
  ['lite entry', true, false],
])("download counts an ask's own retries (%s)", (_name, lite, defaults) => {
  const clientWith = (handler: (req: Request, n: number) => Response) => {
    const clock = testClock();
    const { fetch, seen } = fakeFetch(handler);
    const options = { secretKey: KEY, baseUrl: BASE, fetch, clock };
    const client = lite
      ? createLiteClient(options)
      : createClient(defaults ? options : { ...options, rateLimit: false, telemetry: false });
    return { client, seen, clock };
  };

  const init = { params: { path: { renderReference: 'Render_1' } } } as const;

  it('503 (retry-after 2) then 202 (retry-after 1), maxWaitMs 2500: attempts 2, retryDelayMs 2000', async () => {
    const { client, seen } = clientWith((_, n) =>
      n === 1
        ? json({ code: 'server_error' }, 503, { 'retry-after': '2' })
        : new Response(null, { status: 202, headers: { 'retry-after': '1' } }),
    );
    const error = await download(client, '/renders/{renderReference}/media', init, { maxWaitMs: 2500 }).catch(
      (e: unknown) => e,
    );
    expect(seen).toHaveLength(2);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ code: 'timeout', attempts: 2, retryDelayMs: 2000, retryAfter: 1 });
  });

  it('202, then 503 + 202 on the second ask, then a 404: attempts 4, every wait counted', async () => {
    const { client, seen } = clientWith((_, n) =>
      n === 1
        ? new Response(null, { status: 202, headers: { 'retry-after': '1' } })
        : n === 2
          ? json({ code: 'server_error' }, 503, { 'retry-after': '2' })
          : n === 3
            ? new Response(null, { status: 202, headers: { 'retry-after': '1' } })
            : json({ code: 'not_found' }, 404),
    );
    const error = await download(client, '/renders/{renderReference}/media', init).catch((e: unknown) => e);
    expect(seen).toHaveLength(4);
    expect(error).toMatchObject({ code: 'not_found', attempts: 4, retryDelayMs: 1000 + 2000 + 1000 });
  });

  it('a 200 after a 503 retried internally, whose body is cut off on every read: the reads and backoffs counted', async () => {
    const cut = () =>
      new Response(
        new ReadableStream({
          start(c) {
            c.enqueue(PNG.subarray(0, 4));
            c.error(new TypeError('terminated'));
          },
        }),
        { status: 200, headers: { 'content-type': 'image/png' } },
      );
    const { client, seen } = clientWith((_, n) =>
      n === 1 ? json({ code: 'server_error' }, 503, { 'retry-after': '2' }) : cut(),
    );
    const error = await download(client, '/renders/{renderReference}/media', {
      ...init,
      retry: { attempts: 2 },
    }).catch((e: unknown) => e);
    // Ask 1: 503 then 200 (2 requests, 2 s), cut; ask 2: 200, cut: 3 requests.
    expect(seen).toHaveLength(3);
    expect(error).toMatchObject({ code: 'network_error', attempts: 3 });
    expect((error as PartnerPrintError).retryDelayMs).toBeGreaterThanOrEqual(2000);
  });
});
