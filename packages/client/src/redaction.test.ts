import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { BASE, fakeFetch, json, KEY, OPS, testClock } from '../test/fake.ts';
import { createCore } from './client.ts';
import { AmbiguousOutcomeError, NetworkError, PartnerPrintError } from './errors.ts';
import type { PartnerPrintBaseClient } from './helpers.ts';
import type { OrderRequest } from './orders/content.ts';
import { createOrder } from './orders/create.ts';
import { REDACTED, redactText } from './redact.ts';
import type { ClientEvent } from './transport.ts';

/** Every way an error or event is likely to be shown or logged. */
function renderings(value: unknown): string[] {
  const out = [inspect(value, { depth: 10, showHidden: true }), JSON.stringify(value) ?? '', String(value)];
  if (value instanceof Error)
    out.push(value.message, value.stack ?? '', String((value as { cause?: unknown }).cause));
  return out;
}

function setup(handler: Parameters<typeof fakeFetch>[0], retry = true) {
  const events: ClientEvent[] = [];
  const push = (e: ClientEvent) => events.push(e);
  const core = createCore<never>(
    {
      secretKey: KEY,
      baseUrl: BASE,
      fetch: fakeFetch(handler).fetch,
      clock: testClock(),
      timeoutMs: 20,
      retry: retry ? { attempts: 2 } : false,
      hooks: { request: push, response: push, retry: push, error: push },
    },
    { operations: OPS, userAgent: 'ua' },
  );
  // What the lite entry's createClient returns without a scheduler.
  const client: PartnerPrintBaseClient = Object.assign(core, { scheduler: undefined });
  return { client, events };
}

const echoKey = (req: Request) => `boom, sent ${req.headers.get('x-service-secret-key')} to ${req.url}`;

describe('the secret key never shows', () => {
  it('in a network error whose cause quotes the key', async () => {
    const { client, events } = setup((req) => {
      throw Object.assign(new TypeError(echoKey(req)), { request: req });
    });
    const error = await client.get('/orders').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    for (const text of [...renderings(error), ...events.flatMap(renderings)]) expect(text).not.toContain(KEY);
    expect((error as Error).message).toContain('[redacted]');
  });

  it('in an API error whose message echoes the key', async () => {
    const { client, events } = setup((req) => json({ code: 'unauthorized', message: echoKey(req) }, 401));
    const error = await client.get('/orders').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PartnerPrintError);
    for (const text of [...renderings(error), ...events.flatMap(renderings)]) expect(text).not.toContain(KEY);
  });

  it('in an ambiguous-outcome error and its cause', async () => {
    const { client } = setup((req) => {
      throw new Error(echoKey(req));
    });
    const order: OrderRequest = {
      storeReference: 'Store_x',
      shippingKind: 'combined',
      orderlines: [{ productReference: 'Product_x', quantity: 1 }],
    };
    const error = await createOrder(client, order).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AmbiguousOutcomeError);
    for (const text of renderings(error)) expect(text).not.toContain(KEY);
  });

  it('in timeouts and in the hooks, whose headers say [redacted]', async () => {
    const { client, events } = setup(() => new Promise<Response>(() => {}));
    const error = await client.get('/orders').catch((e: unknown) => e);
    for (const text of [...renderings(error), ...events.flatMap(renderings)]) expect(text).not.toContain(KEY);
    expect(events.length).toBeGreaterThan(0);
    for (const e of events) expect(e.headers.get('x-service-secret-key')).toBe('[redacted]');
  });

  it('in the client object', () => {
    const { client } = setup(() => json({}));
    expect(inspect(client, { depth: 10, showHidden: true })).not.toContain(KEY);
  });
});

describe('redactText: a key a URL percent-encodes (review: a redirect echoing it left it in url.full encoded)', () => {
  const key = 'sk_test_a"b<c>d{e}f|g^h`i_0123456789';
  it('finds it as written, encoded by encodeURIComponent or encodeURI, in either hex case', () => {
    for (const form of [
      key,
      encodeURIComponent(key),
      encodeURI(key),
      encodeURIComponent(key).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()),
    ]) {
      const text = `https://api.example/v2/orders?echo=${form}&other=1`;
      expect(redactText(text, key)).toBe(`https://api.example/v2/orders?echo=${REDACTED}&other=1`);
    }
  });
  it('leaves text without it alone, and a key no URL encodes costs no pattern', () => {
    expect(redactText('nothing here %22', key)).toBe('nothing here %22');
    expect(redactText('sk_test_plain_key1 and sk_test_plain_key1', 'sk_test_plain_key1')).toBe(
      `${REDACTED} and ${REDACTED}`,
    );
  });
});
