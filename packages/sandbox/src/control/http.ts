import { type Context, Hono } from 'hono';
import { readLimited, tooLargeMessage } from '../body.ts';
import { MAX_CONTROL_BODY_BYTES } from '../limits.ts';
import type { SandboxControl } from './api.ts';
import { record } from './check.ts';
import { ControlError, invalidInput } from './error.ts';
import {
  parseAdvanceMs,
  parseDecision,
  parseFaultSpec,
  parseOrganization,
  parseRateLimits,
  parseRendertokenLimit,
  parseShipOptions,
} from './input.ts';

/** The JSON object of a control request; an absent body is `{}`. */
async function body(c: Context): Promise<Record<string, unknown>> {
  const read = await readLimited(c.req.raw, MAX_CONTROL_BODY_BYTES);
  if (read.kind === 'too_large')
    throw new ControlError(413, 'payload_too_large', tooLargeMessage(read.limit));
  const text = new TextDecoder().decode(read.bytes);
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ControlError(400, 'invalid_json', 'The request body is not valid JSON');
  }
  return record(value, 'The request body');
}

const time = (control: SandboxControl) => ({
  now: new Date(control.now()).toISOString(),
  epochMs: control.now(),
});

/** `{ ms }` or `{ seconds }`. */
function advanceMs(b: Record<string, unknown>, now: number): number {
  if (b.ms !== undefined) return parseAdvanceMs(b.ms, now);
  if (b.seconds !== undefined) {
    if (typeof b.seconds !== 'number') throw invalidInput('seconds must be a finite number');
    return parseAdvanceMs(b.seconds * 1000, now);
  }
  throw invalidInput('give ms or seconds');
}

function clockRoutes(app: Hono, control: SandboxControl) {
  app.get('/clock', (c) => c.json(time(control)));
  app.post('/clock/advance', async (c) => {
    await control.advance(advanceMs(await body(c), control.now()));
    return c.json(time(control));
  });
}

function worldRoutes(app: Hono, control: SandboxControl) {
  app.post('/shipments', async (c) => {
    const { orderReference, ...options } = await body(c);
    if (typeof orderReference !== 'string') throw invalidInput('orderReference must be a string');
    return c.json(control.ship(orderReference, parseShipOptions(options)), 201);
  });
  app.post('/claims/:ref/decision', async (c) => {
    control.decideClaim(c.req.param('ref'), parseDecision(await body(c)));
    return c.body(null, 204);
  });
  app.post('/renders/:ref/complete', (c) => {
    control.completeRender(c.req.param('ref'));
    return c.body(null, 204);
  });
  app.post('/renders/:ref/fail', (c) => {
    control.failRender(c.req.param('ref'));
    return c.body(null, 204);
  });
  app.put('/stores/:ref/callback-url', async (c) => {
    const { url } = await body(c);
    if (typeof url !== 'string') throw invalidInput('url must be a string ("" turns callbacks off)');
    control.setCallbackUrl(c.req.param('ref'), url);
    return c.body(null, 204);
  });
  app.get('/uploads/:ref', (c) => c.json({ upload: control.upload(c.req.param('ref')) }));
}

function limitRoutes(app: Hono, control: SandboxControl) {
  app.get('/rate-limits', (c) => c.json({ rateLimits: control.rateLimits() }));
  app.put('/rate-limits', async (c) => {
    const b = await body(c);
    if (!('rateLimits' in b)) throw invalidInput('give rateLimits (policies, or false)');
    control.setRateLimits(parseRateLimits(b.rateLimits));
    return c.json({ rateLimits: control.rateLimits() });
  });
  app.put('/rendertokens', async (c) => {
    const { limit, organization } = await body(c);
    control.setRendertokenLimit(parseRendertokenLimit(limit), parseOrganization(organization));
    return c.body(null, 204);
  });
}

function faultRoutes(app: Hono, control: SandboxControl) {
  app.post('/faults', async (c) => c.json(control.injectFault(parseFaultSpec(await body(c))), 201));
  app.get('/faults', (c) => c.json({ faults: control.faults().map(({ pattern: _p, ...f }) => f) }));
  app.delete('/faults', (c) => {
    control.clearFaults();
    return c.body(null, 204);
  });
}

function deliveryRoutes(app: Hono, control: SandboxControl) {
  app.get('/deliveries', (c) => c.json({ deliveries: control.deliveries() }));
  app.post('/deliveries/run', async (c) => {
    await control.runDueDeliveries();
    return c.json({ deliveries: control.deliveries() });
  });
  app.post('/reset', async (c) => {
    await control.reset();
    return c.body(null, 204);
  });
}

/** The control API over HTTP, mounted at `/_sandbox`: the typed control's methods, inputs checked alike. */
export function controlApp(control: SandboxControl, info: () => unknown): Hono {
  const app = new Hono({ strict: false });
  app.onError((err, c) => {
    if (err instanceof ControlError) return c.json({ code: err.code, message: err.message }, err.status);
    return c.json({ code: 'internal_error', message: `The sandbox failed: ${err.message}` }, 500);
  });
  app.get('/', (c) => c.json(info()));
  clockRoutes(app, control);
  worldRoutes(app, control);
  limitRoutes(app, control);
  faultRoutes(app, control);
  deliveryRoutes(app, control);
  app.notFound((c) =>
    c.json({ code: 'not_found', message: `No control endpoint ${c.req.method} ${c.req.path}` }, 404),
  );
  return app;
}
