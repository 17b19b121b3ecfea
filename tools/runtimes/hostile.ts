// The flow's hostile steps (issue 19): the redirect policy and the redaction pass of @partner-print/client, both
// entries, against the two servers of hostile-server.ts (origins A and B on 127.0.0.1, started by run.ts in
// Node), through each runtime's own fetch. Web-standard only, like the rest of the flow.
import { type ClientEvent, createClient, REDACTED, RedirectError } from '@partner-print/client';
import * as lite from '@partner-print/client/lite';
import type { CombinedOrderRequest } from '@partner-print/openapi';

/** Both origins and the key: the JSON run.ts passes (argv, the worker's URL, the page's URL). */
export interface HostileTargets {
  a: string;
  b: string;
  key: string;
}

/** A step that cannot run here: reported as n/a with the reason, not as a pass. */
export class NotApplicable extends Error {
  override name = 'NotApplicable';
}

const LOOPBACK_ORIGIN = /^http:\/\/127\.0\.0\.1:\d{1,5}$/;

/** The targets from their JSON, or undefined when none were given. */
export function parseTargets(json: string | null | undefined): HostileTargets | undefined {
  if (!json) return undefined;
  const value: unknown = JSON.parse(json);
  const { a, b, key } = (value ?? {}) as Partial<Record<keyof HostileTargets, unknown>>;
  if (typeof a !== 'string' || typeof b !== 'string' || typeof key !== 'string' || !key)
    throw new Error('hostile targets: expected {"a", "b", "key"}');
  if (!LOOPBACK_ORIGIN.test(a) || !LOOPBACK_ORIGIN.test(b)) throw new Error('hostile targets: not 127.0.0.1');
  return { a, b, key };
}

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

interface Recorded {
  server: 'a' | 'b';
  method: string;
  path: string;
  keyHeader: boolean;
  keyAnywhere: boolean;
}

async function received(t: HostileTargets): Promise<Recorded[]> {
  const res = await fetch(`${t.a}/_control/received`);
  return (await res.json()) as Recorded[];
}

async function reset(t: HostileTargets): Promise<void> {
  const res = await fetch(`${t.b}/_control/reset`, { method: 'POST' });
  await res.body?.cancel();
}

/**
 * Every string reachable from `value` the way a logger or serialiser could reach it: own properties
 * (enumerable or not, symbol keys too), getters of an error's prototype chain, the cause chain, arrays, Maps,
 * Sets, Headers, a Request's or Response's URL, status text and headers; plus String() and JSON.stringify().
 */
export function exposedStrings(value: unknown): string[] {
  const out: string[] = [];
  const seen = new Set<object>();
  const read = (o: object, get: () => unknown) => {
    try {
      return get.call(o);
    } catch {
      return undefined;
    }
  };
  const visit = (v: unknown): void => {
    if (typeof v === 'string') out.push(v);
    else if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') out.push(String(v));
    if (!v || typeof v !== 'object' || seen.has(v)) return;
    seen.add(v);
    if (v instanceof Headers) for (const [name, text] of v) out.push(name, text);
    if (v instanceof Request || v instanceof Response) visit({ url: v.url, headers: v.headers });
    if (v instanceof Response) out.push(v.statusText);
    if (v instanceof Map || v instanceof Set) for (const entry of v.entries()) visit(entry);
    for (const key of Reflect.ownKeys(v)) {
      if (typeof key === 'string') out.push(key);
      const d = Object.getOwnPropertyDescriptor(v, key);
      visit(d && 'value' in d ? d.value : d?.get && read(v, d.get));
    }
    if (!(v instanceof Error)) return;
    for (let p = Object.getPrototypeOf(v); p && p !== Object.prototype; p = Object.getPrototypeOf(p))
      for (const d of Object.values(Object.getOwnPropertyDescriptors(p))) if (d.get) visit(read(v, d.get));
  };
  visit(value);
  for (const render of [() => String(value), () => JSON.stringify(value) ?? '']) {
    try {
      out.push(render());
    } catch {
      // a cycle or a throwing toJSON: the walk above covered the parts
    }
  }
  return out;
}

type Entry = 'main' | 'lite';
const ENTRIES: Entry[] = ['main', 'lite'];
const STATUSES = [301, 302, 303, 307, 308] as const;
const METHODS = ['GET', 'POST'] as const;
const ORDER: CombinedOrderRequest = {
  storeReference: 'Store_x',
  shippingKind: 'combined',
  orderlines: [{ productReference: 'Product_x', quantity: 1 }],
};

interface Watch {
  hooks: {
    request(e: ClientEvent): void;
    response(e: ClientEvent): void;
    retry(e: ClientEvent): void;
    error(e: ClientEvent): void;
  };
  logger: Record<
    'debug' | 'info' | 'warn' | 'error',
    (message: string, fields: Record<string, unknown>) => void
  >;
  logLevel: 'debug';
}

/** Hooks and a logger that keep everything they are given, to be searched for the key. */
function watch(seen: unknown[]): Watch {
  const keep = (e: unknown) => {
    seen.push(e);
  };
  const line = (message: string, fields: Record<string, unknown>) => {
    seen.push([message, fields]);
  };
  return {
    hooks: { request: keep, response: keep, retry: keep, error: keep },
    logger: { debug: line, info: line, warn: line, error: line },
    logLevel: 'debug',
  };
}

/**
 * The call as a settled outcome, through the entry's own client: main with its default scheduler, lite without.
 * Each call gets a fresh client (the scheduler learns the hostile server's policies otherwise).
 */
async function call(
  entry: Entry,
  t: HostileTargets,
  baseUrl: string,
  method: 'GET' | 'POST',
  seen: unknown[] = [],
): Promise<{ value?: unknown; error?: unknown }> {
  const options = { secretKey: t.key, baseUrl, ...watch(seen) };
  const client =
    entry === 'main'
      ? createClient({ ...options, retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 1 } })
      : lite.createClient({ ...options, retry: false });
  const sent = method === 'GET' ? client.get('/orders') : client.post('/orders', { body: { order: ORDER } });
  return sent.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
}

/** Whether this runtime's fetch answers `redirect: 'manual'` with an opaque redirect (measured by `probe`). */
export type RedirectMode = 'opaque' | 'readable';

/**
 * What the runtime's own fetch does with a cross-origin 302 under `redirect: 'manual'`, measured without the
 * client: the response it hands back (type, status, whether Location is readable) and whether it went on to B.
 */
export async function probeManualRedirect(
  t: HostileTargets,
): Promise<{ mode: RedirectMode; detail: string }> {
  await reset(t);
  const res = await fetch(`${t.a}/cross/302/v2/probe`, { redirect: 'manual' });
  await res.body?.cancel();
  const location = res.headers.get('location');
  const toB = (await received(t)).filter((r) => r.server === 'b').length;
  check(toB === 0, `fetch with redirect: 'manual' went on to the other origin (${toB} request(s))`);
  const opaque = res.type === 'opaqueredirect';
  if (opaque) check(res.status === 0 && location === null, `an opaque redirect with status ${res.status}`);
  else
    check(res.status === 302 && location?.startsWith(`${t.b}/`), `302 answered as ${res.status} ${location}`);
  const detail = opaque
    ? `type opaqueredirect, status 0, no Location`
    : `type ${res.type}, status 302, Location readable`;
  return { mode: opaque ? 'opaque' : 'readable', detail };
}

/** The one runtime of the matrix whose fetch hides redirects (the flow checks the measurement agrees). */
export const expectedMode = (runtime: string): RedirectMode =>
  runtime === 'chromium' ? 'opaque' : 'readable';

/** (a) 301–308 to another origin, GET and POST, both entries: a RedirectError, nothing reaches B. */
export async function crossOriginRedirects(t: HostileTargets, mode: RedirectMode): Promise<string> {
  await reset(t);
  const codes = new Set<string>();
  for (const entry of ENTRIES)
    for (const status of STATUSES)
      for (const method of METHODS) {
        const what = `${entry} ${method} ${status}`;
        const { error } = await call(entry, t, `${t.a}/cross/${status}/v2`, method);
        check(error instanceof RedirectError, `${what}: expected a RedirectError, got ${String(error)}`);
        codes.add(String(error.code));
        if (mode === 'readable') {
          check(error.code === 'cross_origin_redirect', `${what}: code ${error.code}`);
          check(error.location === t.b && error.message.includes(t.b), `${what}: the origin is not named`);
        } else {
          check(
            error.code === 'opaque_redirect' && error.location === undefined,
            `${what}: code ${error.code}`,
          );
        }
        const texts = exposedStrings(error);
        check(!texts.some((s) => s.includes(t.key)), `${what}: the key is in the error`);
        check(
          !texts.some((s) => s.includes('stolen')),
          `${what}: the error names the target's path or query`,
        );
      }
  const all = await received(t);
  const toA = all.filter((r) => r.server === 'a' && r.method !== 'OPTIONS');
  const toB = all.filter((r) => r.server === 'b');
  check(
    toA.length === 20 && toA.every((r) => r.keyHeader),
    `A got ${toA.length} requests with the key, not 20`,
  );
  check(
    toB.length === 0,
    `B received ${toB.length} request(s), ${toB.filter((r) => r.keyAnywhere).length} with the key`,
  );
  return `20 refused (${[...codes].join(', ')}); B received 0 requests, 0 with the key`;
}

/** The request a followed redirect must arrive as: 303, and 301/302 after a POST, become a GET without body. */
const asFollowed = (method: 'GET' | 'POST', status: number) =>
  method === 'POST' && (status === 307 || status === 308) ? 'POST' : 'GET';

/** (b) 301–308 within A, GET and POST, both entries: followed with the key (readable), or refused (opaque). */
export async function sameOriginRedirects(t: HostileTargets, mode: RedirectMode): Promise<string> {
  await reset(t);
  for (const entry of ENTRIES)
    for (const status of STATUSES)
      for (const method of METHODS) {
        const what = `${entry} ${method} ${status}`;
        const { value, error } = await call(entry, t, `${t.a}/same/${status}/v2`, method);
        if (mode === 'opaque') {
          check(
            error instanceof RedirectError,
            `${what}: expected a RedirectError, got ${String(error ?? value)}`,
          );
          check(error.code === 'opaque_redirect', `${what}: code ${error.code}`);
          check(!exposedStrings(error).some((s) => s.includes(t.key)), `${what}: the key is in the error`);
          continue;
        }
        check(error === undefined, `${what}: not followed: ${String(error)}`);
        const landed = value as { method?: string; body?: string; hasKey?: boolean };
        const expected = asFollowed(method, status);
        check(landed.method === expected, `${what}: arrived as ${landed.method}, expected ${expected}`);
        check(landed.hasKey === true, `${what}: arrived without the key`);
        const body = expected === 'POST' ? JSON.stringify({ order: ORDER }) : '';
        check(landed.body === body, `${what}: arrived with body ${JSON.stringify(landed.body)}`);
      }
  const landings = (await received(t)).filter((r) => r.path.startsWith('/land/'));
  if (mode === 'opaque') {
    check(landings.length === 0, `${landings.length} request(s) landed although the redirects were refused`);
    return '20 refused as opaque_redirect (the browser hides where they point); 0 landed';
  }
  check(landings.length === 20, `${landings.length} landings, expected 20`);
  return '20 followed with the key: GET stays GET, POST 301/302/303 → GET without body, 307/308 → POST with body';
}

const ECHO_STATUSES = [400, 401, 403, 404, 409, 410, 422, 429, 500, 503] as const;

/** (c) A echoes the key in every header, the status text and every body field of 4xx/5xx answers. */
export async function echoedKey(t: HostileTargets): Promise<string> {
  // The test can fail: the key really comes back when nothing redacts it.
  const raw = await fetch(`${t.a}/echo/401/v2/orders`, { headers: { 'X-Service-Secret-Key': t.key } });
  const rawBody = await raw.text();
  check(rawBody.includes(t.key) && raw.headers.get('x-echo') === t.key, 'the server does not echo the key');
  // The 40 calls run at once, each through its own client: every echo carries `"<key>";r=0;t=1`, so one after
  // another they spent a second each waiting on that bucket (24 s per runtime) without checking anything more.
  const cases = ENTRIES.flatMap((entry) =>
    ECHO_STATUSES.flatMap((status) => METHODS.map((method) => ({ entry, status, method }))),
  );
  const outcomes = await Promise.all(
    cases.map(async ({ entry, status, method }) => {
      const seen: unknown[] = [];
      const { error } = await call(entry, t, `${t.a}/echo/${status}/v2`, method, seen);
      return { what: `${entry} ${method} ${status}`, error, seen };
    }),
  );
  let errors = 0;
  let events = 0;
  for (const { what, error, seen } of outcomes) {
    check(error instanceof Error, `${what}: expected an error, got ${String(error)}`);
    const texts = exposedStrings(error);
    check(!texts.some((s) => s.includes(t.key)), `${what}: the key is in the error`);
    check(
      texts.some((s) => s.includes(REDACTED)),
      // The class and code say which answer the client gave instead (a timeout, a local refusal); the key was
      // checked to be absent just above.
      `${what}: nothing redacted (did the echo reach the client?): ${(error as Error).name} ${String((error as { code?: unknown }).code)}: ${(error as Error).message}`,
    );
    check(
      !exposedStrings(seen).some((s) => s.includes(t.key)),
      `${what}: the key is in an event or log line`,
    );
    errors++;
    events += seen.length;
  }
  return `${errors} errors (4xx/5xx, GET and POST, main and lite) and ${events} events/log lines without the key`;
}
