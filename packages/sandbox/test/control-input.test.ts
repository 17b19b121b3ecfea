import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ControlError } from '../src/index.ts';
import { json } from './contract.ts';
import { setup } from './fixtures.ts';

type Err = { code: string; message: string };

function controlOf(s: ReturnType<typeof setup>) {
  return (method: string, path: string, body?: unknown) =>
    s.sandbox.fetch(`http://sandbox.localhost/_sandbox${path}`, {
      method,
      headers: { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
}

async function expectRefused(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  const body = await json<Err>(res);
  expect(body.code).toBe(code);
  expect(typeof body.message).toBe('string');
}

describe('control API input (HTTP)', () => {
  it('refuses an absurd clock advance with 400, and the V2 API keeps answering', async () => {
    const s = setup();
    const send = controlOf(s);
    await expectRefused(await send('POST', '/clock/advance', '{"ms":1e300}'), 400, 'invalid_request');
    await expectRefused(await send('POST', '/clock/advance', { ms: -1 }), 400, 'invalid_request');
    await expectRefused(await send('POST', '/clock/advance', { ms: '60000' }), 400, 'invalid_request');
    await expectRefused(await send('POST', '/clock/advance', { seconds: 1e300 }), 400, 'invalid_request');
    await expectRefused(await send('POST', '/clock/advance', {}), 400, 'invalid_request');
    expect(s.sandbox.clock.now()).toBe(Date.parse('2026-11-16T09:00:00Z'));
    expect((await s.a.get('/orders')).status).toBe(200);
  });

  it('refuses rendertoken limits that are negative or not numbers', async () => {
    const s = setup();
    const send = controlOf(s);
    await expectRefused(await send('PUT', '/rendertokens', { limit: -1 }), 400, 'invalid_request');
    await expectRefused(await send('PUT', '/rendertokens', { limit: 'x' }), 400, 'invalid_request');
    await expectRefused(await send('PUT', '/rendertokens', { limit: 1.5 }), 400, 'invalid_request');
    await expectRefused(
      await send('PUT', '/rendertokens', { limit: 5, organization: 'C' }),
      400,
      'invalid_request',
    );
    expect(await json(await s.a.get('/rendertokens'))).toMatchObject({ rendertokens: { limit: 100 } });
  });

  it('refuses unknown fault kinds, bad statuses and absurd latencies and counts', async () => {
    const s = setup();
    const send = controlOf(s);
    await expectRefused(
      await send('POST', '/faults', { path: '/orders', kind: 'nope' }),
      400,
      'invalid_request',
    );
    await expectRefused(
      await send('POST', '/faults', { path: '/orders', kind: 'latency', latencyMs: 1e300 }),
      400,
      'invalid_request',
    );
    await expectRefused(
      await send('POST', '/faults', { path: '/orders', kind: 'status', count: -1 }),
      400,
      'invalid_request',
    );
    await expectRefused(await send('POST', '/faults', { kind: 'status' }), 400, 'invalid_request');
    expect(s.sandbox.control.faults()).toEqual([]);
  });

  it('refuses bad rate limits, callback URLs, shipments and decisions', async () => {
    const s = setup();
    const send = controlOf(s);
    for (const rateLimits of [{ default: { q: -1 } }, { default: { w: 0 } }, { nope: { q: 1 } }, 'off', 1]) {
      await expectRefused(await send('PUT', '/rate-limits', { rateLimits }), 400, 'invalid_request');
    }
    expect(s.sandbox.control.rateLimits()).toMatchObject({ default: { q: 3000, w: 60 } });
    await expectRefused(
      await send('PUT', `/stores/${s.seed.stores.combined}/callback-url`, { url: 'javascript:alert(1)' }),
      400,
      'invalid_request',
    );
    const orderReference = await s.order();
    await expectRefused(
      await send('POST', '/shipments', { orderReference, lines: [{ orderlineIndex: 0, quantity: 1e300 }] }),
      400,
      'invalid_request',
    );
    await expectRefused(await send('POST', '/shipments', { orderReference: 7 }), 400, 'invalid_request');
    await expectRefused(
      await send('POST', '/claims/Claim_00000000000000000000000000/decision', { outcome: 'maybe' }),
      400,
      'invalid_request',
    );
  });

  it('refuses a body that is not a JSON object (400) or too large (413)', async () => {
    const s = setup();
    const send = controlOf(s);
    await expectRefused(await send('POST', '/clock/advance', '{"ms":'), 400, 'invalid_json');
    await expectRefused(await send('POST', '/clock/advance', '[1]'), 400, 'invalid_request');
    await expectRefused(
      await send('POST', '/faults', { path: `/${'x'.repeat(70_000)}`, kind: 'status' }),
      413,
      'payload_too_large',
    );
  });
});

describe('control API input (typed)', () => {
  it('throws a 400 ControlError for the same inputs', async () => {
    const { sandbox } = setup();
    const refused = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        expect(e).toBeInstanceOf(ControlError);
        expect((e as ControlError).status).toBe(400);
        return;
      }
      throw new Error('not refused');
    };
    await expect(sandbox.control.advance(1e300)).rejects.toMatchObject({ status: 400 });
    await expect(sandbox.control.advance(Number.NaN)).rejects.toBeInstanceOf(ControlError);
    refused(() => sandbox.control.setRendertokenLimit(-1));
    refused(() => sandbox.control.setRendertokenLimit('x' as never));
    refused(() => sandbox.control.injectFault({ path: '/orders', kind: 'nope' as never }));
    refused(() => sandbox.control.setRenderProcessingMs(Number.POSITIVE_INFINITY));
    refused(() => sandbox.control.setRenderOutcome('maybe' as never));
    refused(() => sandbox.control.setRateLimits({ default: { q: 0.5 } }));
    expect(sandbox.clock.now()).toBe(Date.parse('2026-11-16T09:00:00Z'));
  });
});

const hostileNumber = fc.oneof(
  fc.double(),
  fc.integer(),
  fc.constantFrom(1e300, -1e300, -1, 0, 0.5, 2 ** 53 + 2, Number.MAX_VALUE, 5e-324),
);
const hostile: fc.Arbitrary<unknown> = fc.oneof(
  hostileNumber,
  fc.string({ maxLength: 20 }),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom('status', 'latency', 'drop-before', 'drop-after', 'nope', '/orders', '/**', 'A', 'B'),
  fc.array(fc.record({ orderlineIndex: hostileNumber, quantity: hostileNumber }), { maxLength: 3 }),
  fc.record({ default: fc.record({ q: hostileNumber, w: hostileNumber }, { requiredKeys: [] }) }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
);
const FIELDS = [
  'ms',
  'seconds',
  'limit',
  'organization',
  'rateLimits',
  'kind',
  'path',
  'method',
  'status',
  'latencyMs',
  'count',
  'url',
  'orderReference',
  'lines',
  'carrier',
  'trackingCode',
  'trackingUrl',
  'outcome',
  'claimlines',
  'refundShippingCosts',
  'comment',
];
const bodyArb = fc.dictionary(fc.constantFrom(...FIELDS), hostile, { maxKeys: 5 });

describe('control API fuzz', () => {
  it('answers every hostile body with 2xx or a 4xx { code, message }, never 5xx, and the V2 API keeps working', async () => {
    const s = setup();
    const send = controlOf(s);
    const orderReference = await s.order();
    const endpoints: Array<[string, string]> = [
      ['POST', '/clock/advance'],
      ['POST', '/shipments'],
      ['POST', '/claims/Claim_00000000000000000000000000/decision'],
      ['PUT', `/stores/${s.seed.stores.combined}/callback-url`],
      ['PUT', '/rate-limits'],
      ['PUT', '/rendertokens'],
      ['POST', '/faults'],
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...endpoints),
        bodyArb,
        fc.boolean(),
        async ([method, path], body, ref) => {
          const res = await send(
            method,
            path,
            ref && path === '/shipments' ? { ...body, orderReference } : body,
          );
          s.sandbox.control.clearFaults();
          s.sandbox.control.setCallbackUrl(s.seed.stores.combined, '');
          expect(res.status, `${method} ${path} ${JSON.stringify(body)}`).toBeLessThan(500);
          if (res.status >= 400) {
            const err = await json<Err>(res);
            expect(typeof err.code).toBe('string');
            expect(typeof err.message).toBe('string');
          }
        },
      ),
      { numRuns: 400 },
    );
    s.sandbox.control.setRateLimits({});
    const orders = await s.a.get('/orders');
    expect(orders.status).toBe(200);
    expect(Number.isFinite(s.sandbox.clock.now())).toBe(true);
  });

  it('the typed control throws nothing but ControlError for hostile arguments', async () => {
    const { sandbox, seed } = setup();
    const calls: Array<(a: unknown, b: unknown) => unknown> = [
      (a) => sandbox.control.advance(a as never),
      (a, b) => sandbox.control.ship(a as never, b as never),
      (a, b) => sandbox.control.decideClaim(a as never, b as never),
      (a) => sandbox.control.setRenderProcessingMs(a as never),
      (a, b) => sandbox.control.setRendertokenLimit(a as never, b as never),
      (a) => sandbox.control.setCallbackUrl(seed.stores.combined, a as never),
      (a) => sandbox.control.setRateLimits(a as never),
      (a) => sandbox.control.injectFault(a as never),
      (a) => sandbox.control.upload(a as never),
      (a) => sandbox.control.completeRender(a as never),
    ];
    await fc.assert(
      fc.asyncProperty(fc.nat(calls.length - 1), hostile, bodyArb, async (i, a, b) => {
        try {
          await calls[i]!(a, b);
        } catch (e) {
          expect(e).toBeInstanceOf(ControlError);
        }
        sandbox.control.clearFaults();
      }),
      { numRuns: 400 },
    );
    expect(Number.isFinite(sandbox.clock.now())).toBe(true);
  });
});
